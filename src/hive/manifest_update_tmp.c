/*
 * manifest_update_tmp.c - TEMPORARY stand-in for hive_manifest_update
 * (hive_int.h), which the partition-index work implements in manifest.c
 * with a real compare-and-swap. This one loads, mutates, re-validates and
 * replaces the manifest WITHOUT a version check, only so that ANALYZE can
 * be built and tested on the stats branch. DROP THIS FILE AT MERGE.
 */
#include "hive/hive_int.h"

bool hive_manifest_update(sqe_store *store, const char *path, const char *expect_name,
                          const sqe_hive_limits *lim, hive_manifest_mutate_fn mutate, void *ctx,
                          sqe_error *err) {
    hive_manifest m;
    if (!hive_manifest_load(store, path, expect_name, lim, &m, err)) return false;
    bool ok = mutate(&m, ctx, err) && hive_manifest_validate(&m, lim, path, err) &&
              hive_manifest_store(store, path, &m, lim, false, err);
    hive_manifest_free(&m);
    return ok;
}
