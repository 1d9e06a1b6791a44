// OpenSSL 3's libcrypto (Debian's libssl-dev) for MatrixCrypto's primitives: X25519, Ed25519,
// HKDF, HMAC, AES, SHA-2, PBKDF2, the system's random bytes and constant-time comparison.
// Only MatrixCrypto/Primitives/LibCrypto.swift calls it. Deprecated APIs stay hidden, so a
// call that OpenSSL means to remove does not compile.
#ifndef COMMENT_TUI_OPENSSL_SHIM_H
#define COMMENT_TUI_OPENSSL_SHIM_H

#define OPENSSL_NO_DEPRECATED 1
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include <openssl/err.h>

#endif
