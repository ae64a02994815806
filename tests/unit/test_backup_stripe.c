/* Stripe and hardware detection over a fake /sys tree, and the settings derived from it. */
#include "check.h"
#include "backup/backup.h"
#include "backup/tune.h"
#include "base/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static void mkdirs(const char *rel)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    for (char *s = p + strlen(root) + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void link_dev(const char *devno, const char *target)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/sys/dev/block/%s", root, devno);
    if (symlink(target, p))
        perror("symlink");
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/shale-test-stripe-%d", (int)getpid());
    mkdir(root, 0755);
    mkdirs("sys/dev/block");
    mkdirs("sys/block");
    /* md0: RAID0 of four NVMe drives, 512 KiB chunks */
    mkdirs("sys/devices/virtual/block/md0/md");
    mkdirs("sys/devices/virtual/block/md0/slaves/nvme0n1");
    mkdirs("sys/devices/virtual/block/md0/slaves/nvme1n1");
    mkdirs("sys/devices/virtual/block/md0/slaves/nvme2n1");
    mkdirs("sys/devices/virtual/block/md0/slaves/nvme3n1");
    put("sys/devices/virtual/block/md0/md/level", "raid0\n");
    put("sys/devices/virtual/block/md0/md/raid_disks", "4\n");
    put("sys/devices/virtual/block/md0/md/chunk_size", "524288\n");
    link_dev("9:0", "../../devices/virtual/block/md0");
    /* md1: RAID10 of 4 disks */
    mkdirs("sys/devices/virtual/block/md1/md");
    put("sys/devices/virtual/block/md1/md/level", "raid10\n");
    put("sys/devices/virtual/block/md1/md/raid_disks", "4\n");
    link_dev("9:1", "../../devices/virtual/block/md1");
    /* dm-0: an LVM stripe over 3 drives, 64 KiB stripes */
    mkdirs("sys/devices/virtual/block/dm-0/dm");
    mkdirs("sys/devices/virtual/block/dm-0/queue");
    mkdirs("sys/devices/virtual/block/dm-0/slaves/sda");
    mkdirs("sys/devices/virtual/block/dm-0/slaves/sdb");
    mkdirs("sys/devices/virtual/block/dm-0/slaves/sdc");
    put("sys/devices/virtual/block/dm-0/queue/optimal_io_size", "196608\n");
    put("sys/devices/virtual/block/dm-0/queue/minimum_io_size", "65536\n");
    link_dev("253:0", "../../devices/virtual/block/dm-0");
    /* a partition of a plain virtio disk */
    mkdirs("sys/devices/pci0000:00/virtio1/block/vda/vda1");
    mkdirs("sys/devices/pci0000:00/virtio1/block/vda/queue");
    put("sys/devices/pci0000:00/virtio1/block/vda/vda1/partition", "1\n");
    put("sys/devices/pci0000:00/virtio1/block/vda/queue/optimal_io_size", "0\n");
    put("sys/devices/pci0000:00/virtio1/block/vda/queue/minimum_io_size", "512\n");
    link_dev("254:1", "../../devices/pci0000:00/virtio1/block/vda/vda1");

    bk_stripe s;
    bk_stripe_detect_dev(root, 9, 0, &s);
    CHECK(s.data_drives == 4);
    CHECK(s.members == 4);
    CHECK(s.nvme_members == 4);
    CHECK(s.chunk == 524288);
    CHECK(strstr(s.how, "md0") && strstr(s.how, "raid0"));
    bk_stripe_detect_dev(root, 9, 1, &s);
    CHECK(s.data_drives == 2);
    bk_stripe_detect_dev(root, 253, 0, &s);
    CHECK(s.data_drives == 3);
    CHECK(s.chunk == 65536);
    CHECK(s.members == 3);
    bk_stripe_detect_dev(root, 254, 1, &s);
    CHECK(s.data_drives == 1);
    CHECK(strstr(s.how, "vda: plain device") != NULL);
    bk_stripe_detect_dev(root, 8, 99, &s); /* unknown: a plain device */
    CHECK(s.data_drives == 1);

    /* settings from the hardware: read size and concurrency as SPEC §5 says */
    bk_hw hw = {.vcpus = 48, .ram = 384ull << 30};
    bk_stripe_detect_dev(root, 9, 0, &hw.stripe);
    hw.dense_nvme = true;
    bk_settings st;
    bk_settings_tune(&st, &hw);
    CHECK(st.read_size == 4u << 20);
    CHECK(st.concurrency == 48);
    CHECK(st.direct_io);
    CHECK(st.cpu_weight == 25);
    CHECK(st.buffer_limit == (384ull << 30) / 20);
    CHECK(!strcmp(st.compression, "lz4"));
    hw.dense_nvme = false;
    bk_settings_tune(&st, &hw);
    CHECK(st.concurrency == 24);
    hw.vcpus = 2;
    bk_settings_tune(&st, &hw);
    CHECK(st.concurrency == 2);
    hw.vcpus = 1;
    bk_settings_tune(&st, &hw);
    CHECK(st.concurrency == 1);
    bk_settings_plain(&st, &hw);
    CHECK(!st.direct_io && st.concurrency == 1 && st.cpu_weight == 0 && st.read_size == 1u << 20);

    /* the bound: lowered step by step, refused when one reader cannot fit */
    hw.vcpus = 8;
    hw.ram = 4ull << 30;
    bk_settings_tune(&st, &hw);
    st.buffer_limit = 64u << 20;
    char note[512];
    CHECK(bk_settings_fit(&st, true, note, sizeof note) == 0);
    CHECK(bk_settings_planned(&st, true) <= 64u << 20);
    CHECK(strstr(note, "lowered") != NULL);
    st.buffer_limit = 1u << 20;
    CHECK(bk_settings_fit(&st, true, note, sizeof note) == -1);
    CHECK(strstr(err_msg(), "too small") != NULL);
    bk_settings_tune(&st, &hw);
    st.buffer_limit = 1ull << 30; /* 25 % of 4 GiB */
    CHECK(bk_settings_fit(&st, false, note, sizeof note) == -1);
    CHECK(strstr(err_msg(), "exceeds 5 % of RAM") != NULL);

    /* env files: known keys validated, unknown keys refused with file and line */
    char env[300];
    snprintf(env, sizeof env, "%s/b.env", root);
    put("b.env", "# c\nSHALE_BACKUP_READ_SIZE=2MiB\nexport SHALE_BACKUP_CONCURRENCY=3\nSHALE_BACKUP_DIRECT_IO=0\n");
    CHECK(bk_settings_read_env(&st, env) == 0);
    CHECK(st.read_size == 2u << 20 && st.concurrency == 3 && !st.direct_io);
    put("b.env", "SHALE_BACKUP_READ_SIZE=3000\n");
    CHECK(bk_settings_read_env(&st, env) == -1);
    put("b.env", "\nSHALE_BACKUP_NOPE=1\n");
    CHECK(bk_settings_read_env(&st, env) == -1);
    CHECK(strstr(err_msg(), "b.env:2") && strstr(err_msg(), "SHALE_BACKUP_NOPE"));

    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    if (system(cmd))
        fprintf(stderr, "cannot remove %s\n", root);
    return check_done("backup_stripe");
}
