/*
 * threadpool.c - a fixed pool of pthreads draining one FIFO task queue.
 * Used by exec/ to run one pipeline copy per worker; submit never blocks.
 */
#include "base.h"

#include <pthread.h>

typedef struct task {
    struct task *next;
    sqe_task_fn fn;
    void *arg;
} task;

struct sqe_threadpool {
    pthread_mutex_t mu;
    pthread_cond_t has_work, idle;
    task *head, *tail;
    int n_threads, n_active;
    bool stop;
    pthread_t *threads;
};

static void *worker(void *p_) {
    sqe_threadpool *p = p_;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->stop) pthread_cond_wait(&p->has_work, &p->mu);
        if (!p->head && p->stop) break;
        task *t = p->head;
        p->head = t->next;
        if (!p->head) p->tail = NULL;
        p->n_active++;
        pthread_mutex_unlock(&p->mu);
        t->fn(t->arg);
        sqe_free(t);
        pthread_mutex_lock(&p->mu);
        p->n_active--;
        if (!p->head && p->n_active == 0) pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

sqe_threadpool *sqe_threadpool_new(int n_threads) {
    sqe_threadpool *p = sqe_calloc(1, sizeof *p);
    p->n_threads = n_threads > 0 ? n_threads : sqe_cpu_count();
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->has_work, NULL);
    pthread_cond_init(&p->idle, NULL);
    p->threads = sqe_calloc((size_t)p->n_threads, sizeof(pthread_t));
    for (int i = 0; i < p->n_threads; i++) pthread_create(&p->threads[i], NULL, worker, p);
    return p;
}

int sqe_threadpool_size(const sqe_threadpool *p) {
    return p->n_threads;
}

void sqe_threadpool_submit(sqe_threadpool *p, sqe_task_fn fn, void *arg) {
    task *t = sqe_malloc(sizeof *t);
    t->next = NULL;
    t->fn = fn;
    t->arg = arg;
    pthread_mutex_lock(&p->mu);
    if (p->tail)
        p->tail->next = t;
    else
        p->head = t;
    p->tail = t;
    pthread_cond_signal(&p->has_work);
    pthread_mutex_unlock(&p->mu);
}

void sqe_threadpool_wait(sqe_threadpool *p) {
    pthread_mutex_lock(&p->mu);
    while (p->head || p->n_active > 0) pthread_cond_wait(&p->idle, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void sqe_threadpool_free(sqe_threadpool *p) {
    if (!p) return;
    sqe_threadpool_wait(p);
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->has_work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n_threads; i++) pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->has_work);
    pthread_cond_destroy(&p->idle);
    sqe_free(p->threads);
    sqe_free(p);
}
