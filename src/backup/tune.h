/* tune: the backup's settings, computed from the hardware (SPEC §5), read from an env file
 * or reverted to plain defaults, and fitted under the memory bound.
 *
 * Hardware, all read under a root directory so tests can give a fake /sys tree:
 *   - the drives under a file: stat's st_dev -> <root>/sys/dev/block/MAJ:MIN (a partition's
 *     parent is its disk); md RAID (md/level, md/raid_disks, md/chunk_size): data drives =
 *     raid_disks for raid0, raid_disks/2 for raid10, raid_disks-1 for raid5, -2 for raid6,
 *     1 for raid1; other stacked devices (dm stripes, hardware RAID) by
 *     queue/optimal_io_size / queue/minimum_io_size; else 1. Read size = 1 MiB × data drives.
 *   - NVMe: members (slaves/) or the device named nvme*; "dense NVMe" = >= 2 NVMe drives
 *     striped under the data directory, or >= 4 NVMe drives in the machine.
 *   - vCPUs (online processors), RAM (physical pages, lowered to the memory cgroup's limit).
 *   concurrency = vCPUs when dense NVMe or vCPUs <= 2, else vCPUs / 2.
 *
 * The env file (shale backup tune prints it, --env FILE reads it): KEY=VALUE lines, '#'
 * comments; keys SHALE_BACKUP_{READ_SIZE, CONCURRENCY, DIRECT_IO, BUFFER_BYTES, CPU_WEIGHT,
 * COMPRESSION, COMPRESSION_LEVEL, PART_SIZE, PARTS_IN_FLIGHT}; an unknown key or a bad
 * value is an error naming the file and line.
 *
 * Thread-safety: plain functions on caller-owned structs. Errors: -1 with err_set. */
#ifndef SHALE_BACKUP_TUNE_H
#define SHALE_BACKUP_TUNE_H

#include "backup/manifest.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct bk_stripe {
    int data_drives;     /* >= 1 */
    int members;         /* drives in the array (1 for a plain device) */
    int nvme_members;    /* how many of them are NVMe */
    uint64_t chunk;      /* stripe chunk in bytes, 0 if unknown */
    char how[160];       /* what was found: "md0 raid0 4 drives, 512 KiB chunks" */
} bk_stripe;

/* The drives under path (a file or directory), read under root ("" or "/" for the real
 * /sys). Never fails: an unknown device is a plain one (1 drive), explained in how. */
void bk_stripe_detect(const char *root, const char *path, bk_stripe *out);
/* The same from a device number (testable without a real file). */
void bk_stripe_detect_dev(const char *root, unsigned maj, unsigned min, bk_stripe *out);

typedef struct bk_hw {
    int vcpus;
    uint64_t ram;        /* bytes available to this process (cgroup limit applied) */
    int nvme_drives;     /* in the machine */
    bk_stripe stripe;
    bool dense_nvme;
} bk_hw;

void bk_hw_detect(const char *root, const char *datadir, bk_hw *hw);

typedef struct bk_settings {
    uint64_t read_size;
    int concurrency;
    bool direct_io;
    uint64_t buffer_limit;   /* the hard bound of all buffers; <= 5 % of RAM */
    int cpu_weight;          /* cgroup v2 weight (v1 shares = weight × 1024 / 100); 0: leave alone */
    char compression[8];     /* lz4 | zstd | none */
    int level;               /* 0: the method's default */
    uint64_t part_size;      /* S3 multipart part size */
    int parts_in_flight;     /* per writer */
    uint64_t ram;            /* the RAM the 5 % refers to */
} bk_settings;

/* Plain defaults: what a tool does untuned — buffered 1 MiB reads, 1 reader, lz4, no CPU
 * weight, 16 MiB parts, 2 in flight, bound 5 % of RAM. */
void bk_settings_plain(bk_settings *s, const bk_hw *hw);
/* Tuned from the hardware (the values `shale backup tune` prints). */
void bk_settings_tune(bk_settings *s, const bk_hw *hw);
int bk_settings_read_env(bk_settings *s, const char *path);
/* One KEY=VALUE setting (the env file's keys), validated. */
int bk_settings_set(bk_settings *s, const char *key, const char *value);
void bk_settings_write_env(const bk_settings *s, const bk_hw *hw, FILE *f);
/* Bytes of buffers the settings need: per reader BK_READ_AHEAD read buffers (max(read_size,
 * 1 MiB)), a delta and a compression buffer and, for S3, (parts_in_flight + 1) parts of up to
 * 2 × part_size (a part's buffer grows by doubling), locally the writer's staging buffer. */
uint64_t bk_settings_planned(const bk_settings *s, bool s3);
/* Lowers parts in flight, part size (to S3's 5 MiB minimum), concurrency and read size
 * until the plan fits buffer_limit; describes what it changed in note (may be ""). -1 if
 * even the smallest plan does not fit, or buffer_limit exceeds 5 % of RAM. */
int bk_settings_fit(bk_settings *s, bool s3, char *note, size_t note_cap);
void bk_settings_to_used(const bk_settings *s, bool s3, bk_settings_used *u);
/* Peak resident set size of this process (VmHWM), bytes. */
uint64_t bk_peak_rss(void);

#endif
