/* A libocloc.so that forwards to a real one and then answers wrongly, for
   the stale-reply tests (test/Compilers/stale-replies.test) and the sweep
   (bench/hostile_sweep/stale_replies.py). XPU_FAKE_OCLOC selects how:
     stale       the binary of the previous compile (of another module)
     device=D    a binary built for device D instead of the one asked for
     alternate   every second compile flips one byte of the first .text.*
                 section (a compiler that is not deterministic)
   XPU_FAKE_OCLOC_AT="2,5" limits it to those compiles (1-based, the
   worker's warm-up compile not counted); unset: every compile.
   XPU_FAKE_OCLOC_REAL is the real library (default: the system's). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*invoke_t)(unsigned, const char **, uint32_t, const uint8_t **,
                        const uint64_t *, const char **, uint32_t,
                        const uint8_t **, const uint64_t *, const char **,
                        uint32_t *, uint8_t ***, uint64_t **, char ***);
typedef int (*free_t)(uint32_t *, uint8_t ***, uint64_t **, char ***);

static invoke_t real_invoke;
static free_t real_free;
static int compiles;

static void load_real(void) {
  if (real_invoke)
    return;
  const char *path = getenv("XPU_FAKE_OCLOC_REAL");
  void *real = dlopen(path ? path : "/usr/lib/x86_64-linux-gnu/libocloc.so",
                      RTLD_NOW | RTLD_LOCAL);
  if (!real) {
    fprintf(stderr, "replying_ocloc: %s\n", dlerror());
    abort();
  }
  real_invoke = (invoke_t)dlsym(real, "oclocInvoke");
  real_free = (free_t)dlsym(real, "oclocFreeOutput");
}

static int misbehaves_now(void) {
  const char *at = getenv("XPU_FAKE_OCLOC_AT");
  if (!at)
    return 1;
  for (const char *p = at; *p;) {
    char *end;
    long n = strtol(p, &end, 10);
    if (end == p)
      break;
    if (n == compiles)
      return 1;
    p = *end ? end + 1 : end;
  }
  return 0;
}

/* The first .text.* section of a 64-bit ELF file, or NULL. */
static uint8_t *find_text(uint8_t *elf, uint64_t size, uint64_t *length) {
  if (size < 64 || memcmp(elf, "\x7f" "ELF", 4) != 0)
    return NULL;
  uint64_t shoff;
  uint16_t shentsize, shnum, shstrndx;
  memcpy(&shoff, elf + 0x28, 8);
  memcpy(&shentsize, elf + 0x3a, 2);
  memcpy(&shnum, elf + 0x3c, 2);
  memcpy(&shstrndx, elf + 0x3e, 2);
  if (shoff + (uint64_t)shnum * shentsize > size || shstrndx >= shnum)
    return NULL;
  uint64_t strings;
  memcpy(&strings, elf + shoff + shstrndx * shentsize + 0x18, 8);
  for (uint16_t i = 0; i < shnum; ++i) {
    uint8_t *header = elf + shoff + i * shentsize;
    uint32_t name;
    uint64_t offset;
    memcpy(&name, header, 4);
    memcpy(&offset, header + 0x18, 8);
    memcpy(length, header + 0x20, 8);
    if (strings + name + 6 < size &&
        strncmp((char *)elf + strings + name, ".text.", 6) == 0 &&
        *length && offset + *length <= size)
      return elf + offset;
  }
  return NULL;
}

int oclocVersion(void) { return 0x10000; }

int oclocInvoke(unsigned argc, const char **argv, uint32_t ns,
                const uint8_t **ds, const uint64_t *ls, const char **names,
                uint32_t nh, const uint8_t **dh, const uint64_t *lh,
                const char **nhd, uint32_t *no, uint8_t ***dout,
                uint64_t **lout, char ***nout) {
  static uint8_t *previous;
  static uint64_t previous_size;
  load_real();
  const char *mode = getenv("XPU_FAKE_OCLOC");
  int compile = argc > 1 && strcmp(argv[1], "compile") == 0 &&
                !(argc > 2 && strcmp(argv[2], "--help") == 0);
  static int warmed;
  if (!compile || !mode || !warmed++)
    return real_invoke(argc, argv, ns, ds, ls, names, nh, dh, lh, nhd, no,
                       dout, lout, nout);
  ++compiles;
  int wrong = misbehaves_now();
  const char *args[64];
  for (unsigned i = 0; i < argc && i < 64; ++i)
    args[i] = argv[i];
  if (wrong && strncmp(mode, "device=", 7) == 0)
    for (unsigned i = 0; i + 1 < argc && i + 1 < 64; ++i)
      if (strcmp(args[i], "-device") == 0)
        args[i + 1] = mode + 7;
  int rc = real_invoke(argc, args, ns, ds, ls, names, nh, dh, lh, nhd, no,
                       dout, lout, nout);
  for (uint32_t i = 0; i < *no; ++i) {
    if (strcmp((*nout)[i], "k") != 0)
      continue;
    uint64_t size = (*lout)[i];
    uint8_t *current = malloc(size);
    memcpy(current, (*dout)[i], size);
    if (wrong && strcmp(mode, "stale") == 0 && previous) {
      /* Same size or not, the caller frees it through oclocFreeOutput. */
      free((*dout)[i]);
      (*dout)[i] = malloc(previous_size);
      memcpy((*dout)[i], previous, previous_size);
      (*lout)[i] = previous_size;
    }
    if (wrong && strcmp(mode, "alternate") == 0 && compiles % 2 == 0) {
      uint64_t length;
      uint8_t *text = find_text((*dout)[i], size, &length);
      if (text)
        text[length / 2] ^= 0x40;
    }
    free(previous);
    previous = current;
    previous_size = size;
  }
  return rc;
}

int oclocFreeOutput(uint32_t *no, uint8_t ***d, uint64_t **l, char ***n) {
  load_real();
  return real_free(no, d, l, n);
}
