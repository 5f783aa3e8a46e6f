#include "rummikub/search.h"
