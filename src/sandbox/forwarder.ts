// The in-sandbox half of the network proxy on Linux. The sandbox has its own network namespace
// with nothing but loopback; this small Node program listens on the sandbox's 127.0.0.1:3128,
// relays every connection to the runner's proxy socket bound into the sandbox, then runs the
// command and exits with its status. It is passed with `node -e`: no file to install or find.

/** process.argv: [node, socketPath, port, command, ...args]. */
export const FORWARDER_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, port, command, ...args] = process.argv.slice(1);
const server = net.createServer((inside) => {
  const outside = net.connect(socketPath);
  inside.pipe(outside); outside.pipe(inside);
  inside.on('error', () => outside.destroy()); outside.on('error', () => inside.destroy());
});
server.on('error', (e) => { process.stderr.write('unattended sandbox: the network forwarder failed: ' + e.message + '\\n'); process.exit(125); });
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write(command + ': ' + e.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (require('node:os').constants.signals[signal] || 9) : code));
});
`;
