// The search's scratch memory: the calling thread's SearchScratch.
#include "scratch.h"

namespace rummikub::search {

// Returns the calling thread's scratch. (The one thread-local of the search: the public entry points take no
// scratch, and each thread's searches reuse their own memos and memory.)
SearchScratch& thread_scratch() {
  thread_local SearchScratch scratch;
  return scratch;
}

}  // namespace rummikub::search
