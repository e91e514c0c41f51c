import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
const rss = () => (process.memoryUsage().rss / 1e6).toFixed(0);
const dir = process.argv[2];
const sb = process.argv[3] ?? "16MB";
const params = [...PGlite.defaultStartParams, "-c", `shared_buffers=${sb}`, "-c", "wal_init_zero=off"];
const base = rss();
let db = await PGlite.create({ dataDir: dir, extensions: { vector }, startParams: params });
await db.query("select 1");
for (let i=0;i<100;i++) await db.query("select count(*) from pg_class c join pg_attribute a on a.attrelid=c.oid");
await new Promise(r=>setTimeout(r,1500));
console.log(process.execArgv.join(" "), process.env.MALLOC_ARENA_MAX ?? "", sb, "base", base, "opened", rss(), JSON.stringify(process.memoryUsage()));
process.exit(0)
