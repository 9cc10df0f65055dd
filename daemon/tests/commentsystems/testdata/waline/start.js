// Starts Waline's server (@waline/vercel, installed by .ci/run) on
// 127.0.0.1:$BH_WALINE_PORT with SQLite storage in $SQLITE_PATH, creating
// the tables Waline's SQLite storage expects when the database is new.
// Waline's own vanilla.js does the same but listens on every interface.
const path = require('path');
const fs = require('fs');
const dir = process.env.BH_WALINE_DIR;
const db = path.join(process.env.SQLITE_PATH, (process.env.SQLITE_DB || 'waline') + '.sqlite');

function createTables(done) {
  if (fs.existsSync(db)) return done();
  const sqlite3 = require(path.join(dir, 'node_modules/sqlite3'));
  const stamps = 'createdAt DATETIME DEFAULT CURRENT_TIMESTAMP, updatedAt DATETIME DEFAULT CURRENT_TIMESTAMP';
  const reactions = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => `reaction${k} INTEGER`).join(', ');
  const d = new sqlite3.Database(db);
  d.exec(`
    CREATE TABLE wl_Comment (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER, comment TEXT,
      insertedAt DATETIME DEFAULT CURRENT_TIMESTAMP, ip TEXT, link TEXT, mail TEXT, nick TEXT, rid INTEGER,
      pid INTEGER, sticky NUMERIC, status TEXT NOT NULL, "like" INTEGER, ua TEXT, url TEXT, ${stamps});
    CREATE TABLE wl_Counter (id INTEGER PRIMARY KEY AUTOINCREMENT, time INTEGER, ${reactions}, url TEXT, ${stamps});
    CREATE TABLE wl_Users (id INTEGER PRIMARY KEY AUTOINCREMENT, display_name TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '', password TEXT NOT NULL DEFAULT '', type TEXT NOT NULL DEFAULT '', label TEXT,
      github TEXT, twitter TEXT, facebook TEXT, google TEXT, weibo TEXT, qq TEXT, oidc TEXT, huawei TEXT, "2fa" TEXT,
      avatar TEXT, url TEXT, ${stamps});`, (err) => {
    if (err) throw err;
    d.close(done);
  });
}

createTables(() => {
  const root = path.join(dir, 'node_modules/@waline/vercel');
  const Application = require(path.join(dir, 'node_modules/thinkjs'));
  new Application({ ROOT_PATH: root, APP_PATH: path.join(root, 'src'), proxy: true, env: 'production' }).run();
  think.config('host', '127.0.0.1');
  think.config('port', Number(process.env.BH_WALINE_PORT));
});
