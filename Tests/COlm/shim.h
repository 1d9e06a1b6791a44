// Debian's libolm (libolm-dev), the tests' oracle for MatrixCrypto: fed the same random bytes,
// it must produce the same keys and messages, and read what we write. It never ships.
#ifndef COMMENT_TUI_OLM_SHIM_H
#define COMMENT_TUI_OLM_SHIM_H

#include <olm/olm.h>
#include <olm/inbound_group_session.h>
#include <olm/outbound_group_session.h>
#include <olm/pk.h>
#include <olm/sas.h>

#endif
