// The floor of a turn: what any Node.js runner must spend on one, with none of unattended's code.
// It replays the request bodies the CLI sent in a rename run (the same bytes on the wire), to the
// same scripted endpoint, over one kept-alive connection of node's own HTTP client; parses each
// answer; does the call's file work (read_file reads the file; edit reads it, replaces the text and
// writes it back the way the CLI does, a temporary file and a rename); and appends one JSON line
// per event (request, answer, result) to a transcript. No validation, policy, redaction, report,
// retries or history building: so its CPU per turn is a floor, not a rival.
//
// Usage: node floor-client.mjs URL BODIES_DIR TRANSCRIPT FROM_TURN
// Prints {"turns":..,"cpu_ms":..,"cpu_ms_from":..} where cpu_ms_from is the CPU of the turns after
// FROM_TURN (to compare with the CLI's N=100-minus-N=20 figure, which counts the same late turns).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const [url, bodiesDir, transcriptPath, fromTurnArg] = process.argv.slice(2);
const fromTurn = Number(fromTurnArg ?? 0);
const target = new URL(url);
const names = fs.readFileSync(path.join(bodiesDir, 'index.txt'), 'utf8').trim().split('\n').map((line) => line.split(' '));
// Loaded before the clock starts: reading them is not part of a turn.
const bodies = names.map(([name]) => fs.readFileSync(path.join(bodiesDir, name)));
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const transcript = fs.openSync(transcriptPath, 'a');
const line = (event) => fs.writeSync(transcript, `${JSON.stringify({ ...event, ts: new Date().toISOString() })}\n`);

function post(pathAndQuery, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: pathAndQuery, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let temp = 0;
function execute(call) {
  if (call.name === 'read_file') return fs.readFileSync(fs.realpathSync.native(call.args.absolute_path), 'utf8');
  if (call.name === 'edit') {
    const file = fs.realpathSync.native(call.args.file_path);
    const mode = fs.lstatSync(file).mode & 0o7777;
    const content = fs.readFileSync(file, 'utf8').split(call.args.old_string).join(call.args.new_string);
    const tempFile = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}${temp++}.tmp`);
    const fd = fs.openSync(tempFile, 'wx', mode);
    fs.writeFileSync(fd, content);
    fs.closeSync(fd);
    fs.renameSync(tempFile, file);
    return 'Replaced at line 2.';
  }
  return ''; // grep: one call in a run, its work not a turn's
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const start = cpuMs();
let atFrom = start;
for (let i = 0; i < bodies.length; i++) {
  if (i === fromTurn) atFrom = cpuMs();
  line({ type: 'model_request', bytes: bodies[i].length });
  const sse = await post(names[i][2], bodies[i]); // index.txt: name, method, path and query
  const answer = JSON.parse(sse.slice(sse.indexOf('{'), sse.lastIndexOf('}') + 1));
  line({ type: 'model_response', content: answer.candidates[0].content });
  for (const part of answer.candidates[0].content.parts) {
    if (part.functionCall) line({ type: 'tool_result', name: part.functionCall.name, output: execute(part.functionCall) });
  }
}
const end = cpuMs();
agent.destroy();
console.log(JSON.stringify({ turns: bodies.length, cpu_ms: end - start, cpu_ms_from: end - atFrom }));
