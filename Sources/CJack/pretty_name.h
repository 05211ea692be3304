// Setting and removing a JACK_METADATA_PRETTY_NAME property.
//
// Why C: the key is a mutable C global (`extern const char *`), which Swift 6
// does not read (shared mutable state). Only ToneJack's MetadataHelper
// process calls these: each may block in jack2's Berkeley DB store (see there
// why that is a process of its own), so never the node, never the JACK thread.
#ifndef TONENODE_CJACK_PRETTY_NAME_H
#define TONENODE_CJACK_PRETTY_NAME_H

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

#endif
