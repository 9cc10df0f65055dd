// verify.mjs reads WARC files with webrecorder's warcio (an implementation
// independent of the Go code that wrote them) and checks every record's
// WARC-Block-Digest and WARC-Payload-Digest (sha256, hex or base32).
//
// usage: node verify.mjs <dir holding node_modules/warcio> <file.warc.gz>…
// It prints one JSON line per file: {file, records, types, responses, errors}.
import { createReadStream } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, ...files] = process.argv.slice(2);
const { WARCParser } = await import(pathToFileURL(join(dir, "node_modules/warcio/dist/index.js")).href);

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32(buf) {
  let bits = 0, value = 0, out = "";
  for (const b of buf) {
    value = (value << 8) | b; bits += 8;
    while (bits >= 5) { out += B32[(value >>> (bits - 5)) & 31]; bits -= 5; }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

function matches(field, data) {
  const [alg, val] = field.split(":");
  if (alg.toLowerCase() !== "sha256") return `unsupported digest ${field}`;
  const sum = createHash("sha256").update(data).digest();
  if (val.toLowerCase() === sum.toString("hex") || val.toUpperCase() === base32(sum)) return "";
  return `digest ${field} does not match sha256:${sum.toString("hex")}`;
}

// pass reads a file once; with parseHttp the payload is the HTTP body.
async function pass(file, parseHttp) {
  const out = [];
  const parser = new WARCParser(createReadStream(file), { parseHttp, keepHeadersCase: true });
  for await (const record of parser) {
    const data = await record.readFully(false);
    out.push({ record, data: Buffer.from(data) });
  }
  return out;
}

for (const file of files) {
  const res = { file, records: 0, types: {}, responses: [], errors: [] };
  try {
    const blocks = await pass(file, false);
    const payloads = await pass(file, true);
    res.records = blocks.length;
    blocks.forEach(({ record, data }, i) => {
      const h = record.warcHeaders.headers;
      const type = record.warcType, id = record.warcHeader("WARC-Record-ID");
      res.types[type] = (res.types[type] || 0) + 1;
      const bd = record.warcHeader("WARC-Block-Digest");
      if (!bd) res.errors.push(`${id}: no WARC-Block-Digest`);
      else if (matches(bd, data)) res.errors.push(`${id}: block ${matches(bd, data)}`);
      const p = payloads[i];
      const pd = record.warcHeader("WARC-Payload-Digest");
      if (type === "response") {
        if (!pd) res.errors.push(`${id}: no WARC-Payload-Digest`);
        else if (matches(pd, p.data)) res.errors.push(`${id}: payload ${matches(pd, p.data)}`);
        res.responses.push({ url: record.warcTargetURI, status: p.record.httpHeaders ? Number(p.record.httpHeaders.statusCode) : 0, length: p.data.length });
      }
      if (record.warcHeader("WARC-Type") === null) res.errors.push(`record ${i}: no WARC-Type`);
    });
  } catch (e) {
    res.errors.push(String(e && e.stack || e));
  }
  console.log(JSON.stringify(res));
}
