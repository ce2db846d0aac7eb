#include "interpreter/large_stack.hpp"

#include <pthread.h>
#include <signal.h>

#include <exception>

namespace sched {
namespace {

struct Job {
  const std::function<int()>* body = nullptr;
  int result = 0;
  std::exception_ptr error;
};

extern "C" void* run_job(void* p) {
  Job& job = *static_cast<Job*>(p);
  try {
    job.result = (*job.body)();
  } catch (...) {
    job.error = std::current_exception();
  }
  return nullptr;
}

}  // namespace

int run_with_large_stack(const std::function<int()>& body, size_t stack_bytes) {
  Job job;
  job.body = &body;
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return body();
  pthread_t thread;
  const bool started = pthread_attr_setstacksize(&attr, stack_bytes) == 0 && pthread_create(&thread, &attr, run_job, &job) == 0;
  pthread_attr_destroy(&attr);
  if (!started) return body();
  // process-directed signals go to a thread that does not block them: the worker
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  pthread_join(thread, nullptr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (job.error) std::rethrow_exception(job.error);
  return job.result;
}

}  // namespace sched
