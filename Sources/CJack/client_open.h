// Opening a JACK client.
//
// Why C: jack_client_open is variadic (the server name is an optional
// argument after the status), which Swift cannot call. Main thread; ToneJack's
// JackClient and its helper and probe clients, and the end-to-end tests' peer.
#ifndef TONENODE_CJACK_CLIENT_OPEN_H
#define TONENODE_CJACK_CLIENT_OPEN_H

#include <jack/jack.h>

/// jack_client_open with `server_name` when it is neither NULL nor empty.
static inline jack_client_t *tn_client_open(const char *name, jack_options_t options,
                                            jack_status_t *status, const char *server_name) {
    if (server_name != NULL && server_name[0] != '\0') {
        return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server_name);
    }
    return jack_client_open(name, options, status);
}

#endif
