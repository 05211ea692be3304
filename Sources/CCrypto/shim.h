#ifndef TONENODE_CCRYPTO_SHIM_H
#define TONENODE_CCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian libssl-dev): only its EVP digests (SHA-256 of a cable session's file).
#include <openssl/evp.h>
#endif
