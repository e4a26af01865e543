/*
 * engine.h - layer 6: sessions and statement dispatch. The public face is
 * include/sqe.h; this header adds what in-tree tools may need.
 */
#ifndef SQE_ENGINE_H
#define SQE_ENGINE_H

#include "sqe.h"

#include "hive/hive.h"

/* The session's catalog (attached roots, current root/database). */
sqe_hive_catalog *sqe_session_catalog(sqe_session *s);

#endif
