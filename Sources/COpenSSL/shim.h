#ifndef ICSKIT_COPENSSL_SHIM_H
#define ICSKIT_COPENSSL_SHIM_H

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// SSL_set_tlsext_host_name is a macro; Swift sees functions only.
static inline int icskit_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// SSL_CTX_set_min_proto_version is a macro too.
static inline int icskit_ssl_ctx_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

#endif
