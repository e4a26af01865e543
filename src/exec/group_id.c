/*
 * group_id.c - GroupIdExec (not written yet: the constructor returns NULL and
 * sqe_op_build reports the plan node as having no operator).
 */
#include "exec/exec_int.h"

sqe_op *sqe_exec_group_id_new(sqe_exec_ctx *ctx, const sqe_plan *p) {
    SQE_UNUSED(ctx);
    SQE_UNUSED(p);
    return NULL;
}
