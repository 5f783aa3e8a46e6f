// The search's scratch memory: the calling thread's SearchScratch.
#include "scratch.h"

#include <memory>
#include <mutex>

namespace rummikub::search {

namespace {

// The scratches of threads that ended, which the next threads take over: a thread pool made anew for each batch
// of searches (concurrent.futures does that) starts with warm memos and memory allocated, not from nothing.
// Holds at most as many scratches as threads ever searched at once. (Made once and never destroyed: threads may
// end while the program exits.)
struct Pool {
  std::mutex mutex;
  std::vector<std::unique_ptr<SearchScratch>> idle;
};
Pool& pool() {
  static Pool* const p = new Pool;
  return *p;
}

// A thread's scratch: taken from the pool on the thread's first search, given back when the thread ends.
struct ThreadScratch {
  std::unique_ptr<SearchScratch> scratch;
  ThreadScratch() {
    Pool& p = pool();
    {
      const std::lock_guard<std::mutex> lock(p.mutex);
      if (!p.idle.empty()) {
        scratch = std::move(p.idle.back());
        p.idle.pop_back();
      }
    }
    if (!scratch) scratch = std::make_unique<SearchScratch>();
  }
  ~ThreadScratch() {
    Pool& p = pool();
    const std::lock_guard<std::mutex> lock(p.mutex);
    p.idle.push_back(std::move(scratch));
  }
  ThreadScratch(const ThreadScratch&) = delete;
  ThreadScratch& operator=(const ThreadScratch&) = delete;
};

}  // namespace

// Returns the calling thread's scratch. (The one thread-local of the search: the public entry points take no
// scratch, and each thread's searches reuse their own memos and memory.)
SearchScratch& thread_scratch() {
  thread_local ThreadScratch mine;
  return *mine.scratch;
}

}  // namespace rummikub::search
