/*===- qnt_print_runtime.c - printMemref* and main for native runs --------===*
 *
 * The run-time support a module compiled by `quant-opt --qnt-to-llvm` and
 * `quant-translate --emit=obj` needs to become a program, in plain C so
 * that it builds for any target with just a C compiler and libc (no C++
 * runtime, no MLIR libraries): utils/run-on-target.py compiles it for the
 * target of each run.
 *
 *   printMemref{I8,U8,I16,I32,F32}(int64_t rank, void *descriptor)
 *       print an unranked memref in exactly the format of upstream's
 *       printMemref* (mlir/ExecutionEngine/RunnerUtils.h, impl::printMemRef):
 *       "Unranked Memref base@ = 0x... rank = R offset = O sizes = [..]
 *       strides = [..] data = " then the nested data. 8- and 16-bit codes
 *       print as numbers (as lib/Runtime/QuantRunnerUtils.cpp does), f32 as
 *       std::ostream prints a float by default, i.e. printf("%g").
 *   main()
 *       calls the module's `void main()`, renamed to `qnt_main` in the
 *       object (llvm-objcopy --redefine-sym main=qnt_main). Before that it
 *       installs a SIGILL handler that reports the faulting address on
 *       stderr ("qnt-runtime: SIGILL at 0x...") and lets the process die
 *       of SIGILL, so that a run on a CPU without the target's extensions
 *       can name the instruction that trapped.
 *
 * The compiled code also calls malloc and free, which libc provides.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The unranked memref ABI: `descriptor` points at the ranked descriptor
 * {allocated, aligned, offset, sizes[rank], strides[rank]}. */
typedef struct {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
} Descriptor;

typedef enum {
  KIND_I8,
  KIND_U8,
  KIND_I16,
  KIND_I32,
  KIND_I64,
  KIND_F32
} ElementKind;

static void printElement(ElementKind kind, const void *data, int64_t index) {
  switch (kind) {
  case KIND_I8:
    printf("%d", (int)((const int8_t *)data)[index]);
    break;
  case KIND_U8:
    printf("%d", (int)((const uint8_t *)data)[index]);
    break;
  case KIND_I16:
    printf("%d", (int)((const int16_t *)data)[index]);
    break;
  case KIND_I32:
    printf("%" PRId32, ((const int32_t *)data)[index]);
    break;
  case KIND_I64:
    printf("%" PRId64, ((const int64_t *)data)[index]);
    break;
  case KIND_F32:
    /* std::ostream << float: precision 6, %g style; nan/inf as glibc. */
    printf("%g", (double)((const float *)data)[index]);
    break;
  }
}

static void printSpaces(int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    putchar(' ');
}

/* MemRefDataPrinter<T>::print / printFirst / printLast of RunnerUtils.h,
 * line for line. */
static void printData(ElementKind kind, const void *base, int64_t dim,
                      int64_t rank, int64_t offset, const int64_t *sizes,
                      const int64_t *strides) {
  if (dim == 0) {
    printElement(kind, base, offset);
    return;
  }
  /* printFirst */
  printf("[");
  printData(kind, base, dim - 1, rank, offset, sizes + 1, strides + 1);
  if (sizes[0] <= 1) {
    printf("]");
    return;
  }
  printf(", ");
  if (dim > 1)
    printf("\n");
  /* the middle elements */
  for (int64_t i = 1; i + 1 < sizes[0]; ++i) {
    printSpaces(rank - dim + 1);
    printData(kind, base, dim - 1, rank, offset + i * strides[0], sizes + 1,
              strides + 1);
    printf(", ");
    if (dim > 1)
      printf("\n");
  }
  /* printLast */
  printSpaces(rank - dim + 1);
  printData(kind, base, dim - 1, rank, offset + (sizes[0] - 1) * strides[0],
            sizes + 1, strides + 1);
  printf("]");
}

static void printList(const int64_t *values, int64_t rank) {
  for (int64_t i = 0; i < rank; ++i)
    printf(i == 0 ? "%" PRId64 : ", %" PRId64, values[i]);
}

static void printMemref(ElementKind kind, int64_t rank, void *ptr) {
  const Descriptor *d = (const Descriptor *)ptr;
  const int64_t *sizes = d->sizesAndStrides;
  const int64_t *strides = d->sizesAndStrides + rank;
  uintptr_t address = (uintptr_t)d->aligned;
  /* std::hex << std::showbase prints 0 without the prefix. */
  if (address)
    printf("Unranked Memref base@ = 0x%" PRIxPTR, address);
  else
    printf("Unranked Memref base@ = 0");
  printf(" rank = %" PRId64 " offset = %" PRId64 " sizes = [", rank,
         d->offset);
  printList(sizes, rank);
  printf("] strides = [");
  printList(strides, rank);
  printf("] data = \n");
  /* No elements print as [] (upstream's printer reads the first element
     even then; QuantRunnerUtils.cpp prints the same). */
  for (int64_t i = 0; i < rank; ++i)
    if (sizes[i] == 0) {
      printf("[]\n");
      fflush(stdout);
      return;
    }
  if (rank == 0)
    printf("[");
  printData(kind, d->aligned, rank, rank, d->offset, sizes, strides);
  if (rank == 0)
    printf("]");
  printf("\n");
  fflush(stdout);
}

void printMemrefI8(int64_t rank, void *ptr) { printMemref(KIND_I8, rank, ptr); }
void printMemrefU8(int64_t rank, void *ptr) { printMemref(KIND_U8, rank, ptr); }
void printMemrefI16(int64_t rank, void *ptr) {
  printMemref(KIND_I16, rank, ptr);
}
void printMemrefI32(int64_t rank, void *ptr) {
  printMemref(KIND_I32, rank, ptr);
}
void printMemrefI64(int64_t rank, void *ptr) {
  printMemref(KIND_I64, rank, ptr);
}
void printMemrefF32(int64_t rank, void *ptr) {
  printMemref(KIND_F32, rank, ptr);
}

/* Reports where an illegal instruction trapped (async-signal-safe: write
 * only), then restores the default action and returns: the instruction
 * traps again and the process dies of SIGILL. */
static void onIllegalInstruction(int sig, siginfo_t *info, void *context) {
  (void)context;
  char text[64] = "qnt-runtime: SIGILL at 0x";
  size_t length = strlen(text);
  uintptr_t address = (uintptr_t)info->si_addr;
  char digits[2 * sizeof(uintptr_t)];
  int count = 0;
  do {
    digits[count++] = "0123456789abcdef"[address & 15];
    address >>= 4;
  } while (address);
  while (count)
    text[length++] = digits[--count];
  text[length++] = '\n';
  fflush(stdout); /* not async-signal-safe, but keeps the transcript whole */
  (void)!write(2, text, length);
  signal(sig, SIG_DFL);
}

/* The module's @main, renamed. */
extern void qnt_main(void);

int main(void) {
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = onIllegalInstruction;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGILL, &action, NULL);
  qnt_main();
  return 0;
}
