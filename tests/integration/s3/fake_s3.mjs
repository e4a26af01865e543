// fake_s3.mjs - a tiny misbehaving S3 for the S3 store's fault tests
// (tests/unit/test_s3.c, mode "fault"). Usage: node fake_s3.mjs PORT
//
// Behaviour is chosen by a word in the object key, counted per key:
//   flaky503   503 ServiceUnavailable twice, then 200 "hello"
//   throttle429  429 SlowDown twice, then 200 "hello"
//   always500  500 InternalError on every request
//   hang       never answers (the client's timeout must fire)
//   reset      the first connection is destroyed mid-request, then 200
//   expired    400 ExpiredToken once, then 200
//   denied     403 AccessDenied; nobucket: 404 NoSuchBucket
//   redirect   301 PermanentRedirect with x-amz-bucket-region: eu-west-1
//   ignorerange  200 with the whole body "0123456789" whatever the Range
//   slow       answers after 100 ms; GET .../slowmax: most slow requests
//              in flight at once; GET .../connections: TCP connections so far
//   vhost      200 only when addressed virtual-hosted (Host: fake.*, path /vhost.txt)
//   mpfail     multipart: upload "up&1" created, every part refused (403),
//              the abort counted; a GET answers the number of aborts
//   ambig      conditional PUT: stores the body then answers 500 (the write
//              landed), later PUTs 412; HEAD answers the stored body's MD5
//   taken      conditional PUT: 500 without storing, then 412 (another
//              object "other" exists); HEAD answers its MD5
//   badxml / looptoken  (listing prefixes) a malformed page / a page that
//              repeats its continuation token
// Every request must carry x-amz-content-sha256, x-amz-date and an
// Authorization header, and a PUT must not be chunked: otherwise 400
// FakeBadRequest, so every test checks the client's signing basics too.
import http from 'node:http';
import crypto from 'node:crypto';

const port = Number(process.argv[2]);
const counts = new Map();
const stored = new Map();
let aborted = 0;

function xmlError(res, status, code, extra = {}) {
  res.writeHead(status, { 'Content-Type': 'application/xml', ...extra });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code>` +
          `<Message>fake ${code}</Message><RequestId>FAKE1</RequestId></Error>`);
}

function ok(req, res, body = 'hello') {
  const etag = '"' + crypto.createHash('md5').update(body).digest('hex') + '"';
  res.writeHead(200, { 'Content-Length': Buffer.byteLength(body), ETag: etag,
                       'Last-Modified': new Date().toUTCString() });
  res.end(req.method === 'HEAD' ? undefined : body);
}

let connections = 0, slowNow = 0, slowMax = 0;
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => handle(req, res, Buffer.concat(chunks)));
});

function handle(req, res, body) {
  const url = new URL(req.url, 'http://x');
  const key = decodeURIComponent(url.pathname);
  const n = (counts.get(key) || 0) + 1;
  counts.set(key, n);
  const h = req.headers;
  if (!h['x-amz-content-sha256'] || !h['x-amz-date'] || !h.authorization ||
      (req.method === 'PUT' && h['transfer-encoding'])) {
    return xmlError(res, 400, 'FakeBadRequest');
  }
  if (url.searchParams.get('list-type') === '2') {
    const prefix = url.searchParams.get('prefix') || '';
    res.writeHead(200, { 'Content-Type': 'application/xml' });
    if (prefix.startsWith('badxml')) return res.end('<ListBucketResult><Contents><Size>1');
    if (prefix.startsWith('looptoken'))
      return res.end('<ListBucketResult><IsTruncated>true</IsTruncated>' +
                     '<NextContinuationToken>same</NextContinuationToken></ListBucketResult>');
    return res.end('<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>');
  }
  if (key.includes('vhost')) {
    const vh = (h.host || '').startsWith('fake.') && key === '/vhost.txt';
    return vh ? ok(req, res) : xmlError(res, 400, 'FakeNotVirtualHosted');
  }
  if (key.endsWith('/connections')) return ok(req, res, String(connections));
  if (key.endsWith('/slowmax')) return ok(req, res, String(slowMax));
  if (key.includes('slow')) {
    slowNow++;
    slowMax = Math.max(slowMax, slowNow);
    return setTimeout(() => { slowNow--; ok(req, res); }, 100);
  }
  if (key.includes('flaky503') && n <= 2) return xmlError(res, 503, 'ServiceUnavailable');
  if (key.includes('throttle429') && n <= 2) return xmlError(res, 429, 'SlowDown');
  if (key.includes('always500')) return xmlError(res, 500, 'InternalError');
  if (key.includes('hang')) return; /* never answer */
  if (key.includes('reset') && n === 1) return req.socket.destroy();
  if (key.includes('expired') && n === 1) return xmlError(res, 400, 'ExpiredToken');
  if (key.includes('denied')) return xmlError(res, 403, 'AccessDenied');
  if (key.includes('nobucket')) return xmlError(res, 404, 'NoSuchBucket');
  if (key.includes('redirect'))
    return xmlError(res, 301, 'PermanentRedirect', { 'x-amz-bucket-region': 'eu-west-1' });
  if (key.includes('ignorerange')) return ok(req, res, '0123456789');
  if (key.includes('mpfail')) {
    if (req.method === 'POST' && url.searchParams.has('uploads')) {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      return res.end('<InitiateMultipartUploadResult><UploadId>up&amp;1</UploadId>' +
                     '</InitiateMultipartUploadResult>');
    }
    if (req.method === 'DELETE' && url.searchParams.get('uploadId') === 'up&1') {
      aborted++;
      res.writeHead(204);
      return res.end();
    }
    if (req.method === 'GET') return ok(req, res, String(aborted));
    return xmlError(res, 403, 'AccessDenied');
  }
  if (key.includes('ambig') || key.includes('taken')) {
    if (req.method === 'PUT') {
      if (!stored.has(key)) {
        stored.set(key, key.includes('ambig') ? body : Buffer.from('other'));
        return xmlError(res, 500, 'InternalError');
      }
      return xmlError(res, 412, 'PreconditionFailed');
    }
    return ok(req, res, stored.get(key) || '');
  }
  return ok(req, res);
}

server.on('connection', () => connections++);
server.listen(port, '127.0.0.1', () => console.log(`fake_s3 listening on ${port}`));
