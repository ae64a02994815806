// One long-lived chdb (ClickHouse 26.7) for a test script: loading ClickHouse costs seconds per
// process, and the server test scripts ask it dozens of queries. Reads NUL-terminated queries
// on stdin, answers each with its TabSeparated output (or "ERROR <first line of the message>")
// and a NUL. Every query runs alone (no state is kept between them in these scripts' use).
//
//   node chdb-serve.js path/to/node_modules/chdb   (driven by chdb_start in lib.sh)
'use strict';
const { query } = require(process.argv[2]);

let pending = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  for (let end; (end = pending.indexOf(0)) >= 0;) {
    const sql = pending.subarray(0, end).toString('utf8');
    pending = pending.subarray(end + 1);
    let out;
    try {
      out = String(query(sql, 'TSV'));
    } catch (e) {
      out = 'ERROR ' + String(e.message).split('\n')[0];
    }
    process.stdout.write(out.replace(/\0/g, '') + '\0');
  }
});
