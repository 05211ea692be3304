import Testing

/// Every test that talks to a JACK server runs in this serialized suite.
/// libjack (jackd2) keeps one shared-memory registry per process, so clients
/// in one process must not talk to two different servers at the same time;
/// each test starts its own server, so they take turns. What the tests share
/// (servers, the process runner, the JACK peers, `nodeSettings`) is in
/// Tests/EndToEndSupport.
@Suite("Against real JACK servers", .serialized)
struct JackServerTests {}
