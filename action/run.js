#!/usr/bin/env node
// The worldcook GitHub Action's main step (action.yml): validate the
// scenes (SARIF for code scanning, annotations on the pull request), check
// the cooked world is up to date, replay each route, and write what it
// found to the job summary. worldcook does the work and renders every
// finding; this script only runs it and tabulates what it reports.
//
// Inputs come as environment variables (action.yml passes them):
//   INPUT_SCENES   scenes or folders, separated by blanks or new lines
//   INPUT_OUT      the cooked world's folder: cook --check against it
//   INPUT_ROUTES   route CSV files or folders: simulate, one run each
//   INPUT_FAIL_ON  simulate --fail-on (holes, pop-in, over-budget, …)
//   INPUT_SARIF    "true": write the SARIF file for upload
//   WORLDCOOK      the worldcook binary
// and GitHub's: GITHUB_STEP_SUMMARY and GITHUB_OUTPUT (files appended
// to), RUNNER_TEMP, and GITHUB_SERVER_URL, GITHUB_REPOSITORY and
// GITHUB_SHA to link findings to their lines. Outputs: sarif-file,
// errors, warnings, and ok ("true" when every check passed). It exits 1
// when a check failed, 2 when worldcook could not run one.
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');

// maxListedErrors is how many errors the summary lists with file:line;
// the annotations and the SARIF hold every one.
const maxListedErrors = 10;

const env = process.env;

function list(s) {
  s = (s || '').trim();
  if (s === '') return [];
  // One path a line when there are lines (paths may hold blanks), else
  // blank-separated.
  return (s.includes('\n') ? s.split('\n') : s.split(/\s+/)).map((x) => x.trim()).filter((x) => x !== '');
}

function run(args, opts) {
  const r = childProcess.spawnSync(env.WORLDCOOK || 'worldcook', args, {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', opts && opts.inherit ? 'inherit' : 'pipe', 'pipe'],
  });
  if (r.error) {
    process.stderr.write('worldcook: cannot run ' + (env.WORLDCOOK || 'worldcook') + ': ' + r.error.message + '\n');
    process.exit(2);
  }
  if (r.stderr && !(opts && opts.quiet)) process.stderr.write(r.stderr);
  return { code: r.status === null ? 2 : r.status, stdout: r.stdout || '', stderr: r.stderr || '' };
}

function append(file, text) {
  if (file) fs.appendFileSync(file, text);
}

function output(name, value) {
  append(env.GITHUB_OUTPUT, name + '=' + value + '\n');
}

// md escapes text for Markdown outside code: its markup and HTML.
function md(s) {
  return String(s)
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#~])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

function code(s) {
  s = String(s);
  const fence = s.includes('`') ? '`` ' : '`';
  return fence + s + fence.split('').reverse().join('');
}

function plural(n, one, many) {
  return n + ' ' + (n === 1 ? one : many || one + 's');
}

// link is file:line as a link to the line at the commit, when the
// workflow says which.
// uri is the SARIF artifact URI, percent-encoded.
function link(uri, line, col) {
  const where = decodeURI(uri) + ':' + line + (col ? ':' + col : '');
  if (!env.GITHUB_SERVER_URL || !env.GITHUB_REPOSITORY || !env.GITHUB_SHA || /^[a-z]+:/.test(uri)) return code(where);
  return '[' + code(where) + '](' + env.GITHUB_SERVER_URL + '/' + env.GITHUB_REPOSITORY + '/blob/' + env.GITHUB_SHA + '/' + uri + '#L' + line + ')';
}

function validate(scenes, sarif, summary) {
  // Annotations first: the runner reads workflow commands from stdout.
  const annotated = run(['validate', '--format', 'github', ...scenes], { inherit: true });
  // The same run again for the SARIF file (its warnings are in the log
  // already).
  const log = run(['validate', '--format', 'sarif', ...scenes], { quiet: true });
  if (log.code > 1 || annotated.code > 1) {
    summary.push('**validate could not read every scene** (exit ' + Math.max(log.code, annotated.code) + '):', '', '```', log.stderr.trim() || annotated.stderr.trim(), '```', '');
    return { ok: false, failed: true };
  }
  fs.writeFileSync(sarif, log.stdout);
  const doc = JSON.parse(log.stdout);
  const rules = new Map();
  const errors = [];
  let nErrors = 0, nWarnings = 0;
  for (const r of doc.runs[0].results) {
    const c = rules.get(r.ruleId) || { error: 0, warning: 0 };
    c[r.level === 'error' ? 'error' : 'warning']++;
    rules.set(r.ruleId, c);
    if (r.level === 'error') {
      nErrors++;
      errors.push(r);
    } else {
      nWarnings++;
    }
  }
  output('errors', nErrors);
  output('warnings', nWarnings);
  summary.push('### validate', '');
  summary.push((nErrors > 0 ? ':x: ' : ':white_check_mark: ') + plural(nErrors, 'error') + ', ' + plural(nWarnings, 'warning') + ' in ' + scenes.map(code).join(', '), '');
  if (rules.size > 0) {
    const byID = new Map(doc.runs[0].tool.driver.rules.map((r) => [r.id, r]));
    summary.push('| rule | errors | warnings | what it means |', '|---|---:|---:|---|');
    const order = [...rules.keys()].sort((a, b) => rules.get(b).error - rules.get(a).error || rules.get(b).warning - rules.get(a).warning || (a < b ? -1 : 1));
    for (const id of order) {
      const rule = byID.get(id);
      const name = rule && rule.helpUri ? '[' + code(id) + '](' + rule.helpUri + ')' : code(id);
      summary.push('| ' + name + ' | ' + rules.get(id).error + ' | ' + rules.get(id).warning + ' | ' + md(rule ? rule.shortDescription.text : '') + ' |');
    }
    summary.push('');
  }
  if (errors.length > 0) {
    summary.push(errors.length > maxListedErrors ? 'The first ' + maxListedErrors + ' errors of ' + errors.length + ':' : 'Errors:', '');
    for (const r of errors.slice(0, maxListedErrors)) {
      const loc = r.locations[0].physicalLocation;
      summary.push('- ' + link(loc.artifactLocation.uri, loc.region.startLine, loc.region.startColumn) + ' ' + code(r.ruleId) + ': ' + md(r.message.text));
    }
    summary.push('');
  }
  return { ok: nErrors === 0, failed: false };
}

function cookCheck(scenes, out, summary) {
  const r = run(['cook', '--check', ...scenes, '--out', out]);
  summary.push('### cook --check', '');
  if (r.code === 0) {
    summary.push(':white_check_mark: ' + code(out) + ' is what the scenes cook to.', '');
    return { ok: true, failed: false };
  }
  // The findings are listed above: worldcook's own lines say why.
  const lines = r.stderr.trim().split('\n');
  const why = lines.filter((l) => l.startsWith('worldcook: '));
  summary.push(':x: cook --check ' + code(out) + ' failed (exit ' + r.code + '):', '', '```', (why.length > 0 ? why : lines).join('\n'), '```', '');
  return { ok: false, failed: r.code > 1 };
}

// routesOf expands route files and folders into route files, a folder's
// sorted.
function routesOf(items) {
  const out = [];
  for (const item of items) {
    let st;
    try {
      st = fs.statSync(item);
    } catch (e) {
      out.push(item); // simulate says what is wrong with it
      continue;
    }
    if (st.isDirectory()) {
      for (const f of fs.readdirSync(item).filter((f) => f.endsWith('.csv')).sort()) out.push(path.join(item, f));
    } else {
      out.push(item);
    }
  }
  return out;
}

function bytes(n) {
  if (n === null || n === undefined) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let k = 0;
  while (n >= 1024 && k < units.length - 1) {
    n /= 1024;
    k++;
  }
  return (k === 0 ? String(n) : n.toFixed(1)) + ' ' + units[k];
}

function simulate(world, routes, failOn, summary) {
  summary.push('### simulate', '');
  summary.push('World ' + code(world) + (failOn ? ', failing on ' + code(failOn) : ', no gate (fail-on is empty)') + '.', '');
  summary.push('| route | result | frames | peak resident | hole frames | pop-in frames | first pop-in | failed loads |', '|---|---|---:|---:|---:|---:|---:|---:|');
  let ok = true, failed = false;
  const notes = [];
  for (const route of routes) {
    const args = ['simulate', '--json', '--summary-only', '--path', route, world];
    if (failOn) args.push('--fail-on', failOn);
    const r = run(args);
    let sum = null, exitError = null;
    const warnings = [];
    for (const line of r.stdout.split('\n')) {
      if (!line.trim()) continue;
      let o;
      try {
        o = JSON.parse(line);
      } catch {
        continue;
      }
      if (o.message_type === 'summary') sum = o;
      else if (o.message_type === 'warning') warnings.push(o);
      else if (o.message_type === 'exit_error') exitError = o;
    }
    if (r.code !== 0) ok = false;
    if (r.code > 1 || !sum) {
      failed = failed || r.code > 1;
      summary.push('| ' + code(route) + ' | :x: could not run | | | | | | |');
      notes.push('- ' + code(route) + ': ' + md(exitError ? exitError.message : r.stderr.trim()));
      continue;
    }
    const result = r.code === 1 ? ':x: ' + md(exitError ? exitError.message.replace(/^simulate --fail-on: /, '') : 'gate failed')
      : failOn ? ':white_check_mark: passed' : 'ran';
    summary.push('| ' + [code(route), result, sum.frames, bytes(sum.peakResidentBytes), sum.holeFrames,
      sum.view ? sum.popInFrames : 'no view', sum.view && sum.popInFrames > 0 ? sum.firstPopInFrame : '–', sum.failures].join(' | ') + ' |');
    for (const w of warnings) notes.push('- ' + code(route) + ' ' + code(w.code) + ': ' + md(w.message));
  }
  summary.push('');
  if (notes.length > 0) summary.push('<details><summary>Warnings</summary>', '', ...notes, '', '</details>', '');
  return { ok, failed };
}

function main() {
  const scenes = list(env.INPUT_SCENES);
  if (scenes.length === 0) {
    process.stderr.write('worldcook: the action\'s scenes input is empty; name the scenes or folders to check (scenes: assets/scenes)\n');
    process.exit(2);
  }
  const out = (env.INPUT_OUT || '').trim();
  const routes = routesOf(list(env.INPUT_ROUTES));
  const failOn = (env.INPUT_FAIL_ON || '').trim();
  const wantSARIF = (env.INPUT_SARIF || 'true').trim() !== 'false';
  const dir = path.join(env.RUNNER_TEMP || require('os').tmpdir(), 'worldcook-action');
  fs.mkdirSync(dir, { recursive: true });
  const sarif = path.join(dir, 'worldcook.sarif');

  const summary = ['## worldcook', ''];
  const results = [validate(scenes, sarif, summary)];
  output('sarif-file', wantSARIF && fs.existsSync(sarif) ? sarif : '');
  if (out) results.push(cookCheck(scenes, out, summary));
  if (routes.length > 0) {
    // A route replays a cooked world, or a single scene cooked in memory.
    let world = out;
    if (!world && scenes.length === 1 && scenes[0].endsWith('.esscene')) world = scenes[0];
    if (!world) {
      summary.push('### simulate', '', ':x: the routes need a world: set out to the cooked world, or scenes to the one scene they cross.', '');
      results.push({ ok: false, failed: true });
    } else {
      results.push(simulate(world, routes, failOn, summary));
    }
  }
  append(env.GITHUB_STEP_SUMMARY, summary.join('\n') + '\n');
  const ok = results.every((r) => r.ok);
  output('ok', ok);
  process.exit(results.some((r) => r.failed) ? 2 : ok ? 0 : 1);
}

main();
