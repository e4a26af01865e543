// s3rver.mjs - starts @20minutes/s3rver (a SigV4-verifying S3) for run.sh.
// Usage: NODE_OPTIONS=--openssl-legacy-provider node s3rver.mjs PORT DIR
// Keys: S3RVER / S3RVER; bucket test-bucket. Prints "ready" when listening.
import S3rver from '@20minutes/s3rver';

const [port, directory] = [Number(process.argv[2]), process.argv[3]];
const server = new S3rver({ address: '127.0.0.1', port, directory, silent: true,
                            configureBuckets: [{ name: 'test-bucket' }] });
await server.run();
console.log('ready');
