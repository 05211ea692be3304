// Setting and removing a JACK_METADATA_PRETTY_NAME property.
//
// Why C: the key is a mutable C global (`extern const char *`), which Swift 6
// does not read (shared mutable state). Only ToneJack's MetadataHelper
// process calls these: each may block in jack2's Berkeley DB store (see there
// why that is a process of its own), so never the node, never the JACK thread.
#ifndef TONENODE_CJACK_PRETTY_NAME_H
#define TONENODE_CJACK_PRETTY_NAME_H

#include <dlfcn.h>
#include <jack/jack.h>
#include <jack/metadata.h>
#include <jack/uuid.h>

/// Sets JACK_METADATA_PRETTY_NAME on one subject (a client or a port).
/// Returns 0 on success.
static inline int tn_set_pretty_name(jack_client_t *client, jack_uuid_t subject, const char *pretty) {
    return jack_set_property(client, subject, JACK_METADATA_PRETTY_NAME, pretty, "text/plain");
}

/// Removes exactly the JACK_METADATA_PRETTY_NAME key of one subject: a single
/// keyed delete, never `jack_remove_properties`' cursor walk, which deadlocks
/// in Berkeley DB when several clients walk at once. Returns 0 on success.
static inline int tn_remove_pretty_name(jack_client_t *client, jack_uuid_t subject) {
    return jack_remove_property(client, subject, JACK_METADATA_PRETTY_NAME);
}

/// Makes sure what was set reached the server before the client closes.
/// jack2's metadata calls are synchronous: nothing to do. PipeWire's
/// `jack_set_property` only queues a message for its client's loop thread,
/// and `jack_client_close` stops that thread first: on a loaded machine a
/// port's name (the last one queued) never left the helper. Activating the
/// client makes pipewire-jack wait for the server's answer (a sync round
/// trip, after the messages queued before it); `jack_client_close`
/// deactivates it. PipeWire is told apart by its library in the process.
/// Returns 0 on success.
static inline int tn_metadata_round_trip(jack_client_t *client) {
    if (dlsym(RTLD_DEFAULT, "pw_init") == NULL) return 0;
    return jack_activate(client);
}

#endif
