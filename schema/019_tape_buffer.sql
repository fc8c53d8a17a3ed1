-- FCIP tape acceleration's flow-control buffer (`write-accelerator
-- tape-accelerator flow-control-buffer-size {auto | 64-32768}`, KB,
-- mds-cli.md §4): 0 is auto (docs/tape-acceleration.md).
ALTER TABLE fcip_if ADD COLUMN tape_buf_kb INTEGER NOT NULL DEFAULT 0
    CHECK (tape_buf_kb = 0 OR tape_buf_kb BETWEEN 64 AND 32768);
