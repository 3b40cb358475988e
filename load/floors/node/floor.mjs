// The floor of Node's http module (no three.js): GET /floor answers pre-built bytes of the sizes the Java floors
// answer (float32 with Accept: application/octet-stream, else JSON text of JSON_BYTES bytes).
//   node floor.mjs PORT JSON_BYTES
import http from 'node:http';
import crypto from 'node:crypto';
const port = Number(process.argv[2] || 8080);
const jsonBytes = Number(process.argv[3] || 4000);
const binary = crypto.randomBytes(24 * 16 * 4);
const json = Buffer.from(('{"m":[' + '0.123456789,'.repeat(jsonBytes)).slice(0, jsonBytes - 3) + '0]}');
http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname !== '/floor') { res.writeHead(404); res.end(); return; }
  url.searchParams.get('clip'); url.searchParams.get('time'); url.searchParams.get('loop');
  const bin = /application\/octet-stream/.test(String(req.headers.accept || ''));
  const body = bin ? binary : json;
  res.writeHead(200, { 'Content-Type': bin ? 'application/octet-stream' : 'application/json', 'Content-Length': body.length });
  res.end(body);
}).listen(port, '127.0.0.1');
