// gpupipe local console. Renders only with createElement/textContent (never innerHTML with data): a prompt is
// text, whatever it contains. Refreshes the visible view every 2 s while the tab is visible.
'use strict';

const REFRESH_MS = 2000;
const SVG = 'http://www.w3.org/2000/svg';
const state = {config: null, view: null, jobId: null, jobTerminalPolls: 0, busy: false, started: false};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (name === 'class') node.className = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function clear(node) {
  node.replaceChildren();
  return node;
}

// ---- token (a stack started with --require-token: every console call and submission carries one) ----

const TOKEN_KEY = 'gpupipe-console-token';

function withToken(headers) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? Object.assign({'Authorization': 'Bearer ' + token}, headers) : headers;
}

function askForToken(body) {
  const form = document.getElementById('token-form');
  const message = ((body && body.errors) || [])[0];
  document.getElementById('token-outcome').textContent = message ? message.message : 'a token is required';
  form.hidden = false;
}

async function useToken(event) {
  event.preventDefault();
  const input = document.getElementById('token-input');
  sessionStorage.setItem(TOKEN_KEY, input.value.trim().replace(/^Bearer\s+/i, ''));
  input.value = '';
  document.getElementById('token-form').hidden = true;
  await begin();
}

async function getJson(path) {
  const response = await fetch(path, {headers: withToken({'Accept': 'application/json'}), cache: 'no-store'});
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = {text}; }
  if (response.status === 401 && path.startsWith('/console/api/')) askForToken(body);
  return {status: response.status, body};
}

function time(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toLocaleTimeString([], {hour12: false}) + '.' + String(d.getMilliseconds()).padStart(3, '0');
}

function duration(fromIso, toIso) {
  if (!fromIso || !toIso) return '';
  const ms = new Date(toIso) - new Date(fromIso);
  return ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(1) + ' s';
}

function statusBadge(status) {
  return el('span', {class: 'status status-' + status, dataset: {status}}, status);
}

// ---- navigation ----

function route() {
  const hash = location.hash || '#/jobs';
  const job = hash.match(/^#\/job\/([0-9a-fA-F-]{36})$/);
  state.view = job ? 'job' : (['#/queues', '#/scaling', '#/usage'].includes(hash) ? hash.substring(2) : 'jobs');
  state.jobId = job ? job[1].toLowerCase() : null;
  state.jobTerminalPolls = 0;
  for (const section of document.querySelectorAll('.view')) {
    section.hidden = section.id !== 'view-' + state.view;
  }
  for (const link of document.querySelectorAll('nav a')) {
    link.classList.toggle('active', link.dataset.view === state.view);
  }
  if (state.view === 'job') clearJob();
  refresh();
}

async function refresh() {
  if (document.hidden || state.busy) return;
  state.busy = true;
  try {
    if (state.view === 'jobs') await refreshJobs();
    else if (state.view === 'job') await refreshJob();
    else if (state.view === 'queues') await refreshQueues();
    else if (state.view === 'scaling') await refreshScaling();
    else if (state.view === 'usage') await refreshUsage();
    document.getElementById('live').classList.remove('stale');
  } catch (e) {
    document.getElementById('live').classList.add('stale');
  } finally {
    state.busy = false;
  }
}

// ---- submit form ----

function kind() {
  return document.getElementById('f-kind').value;
}

function showKindFields() {
  const k = kind();
  for (const node of document.querySelectorAll('.for-text, .for-chat, .for-speech')) {
    node.hidden = !node.classList.contains('for-' + k);
  }
  const route = clear(document.getElementById('f-route'));
  route.append(el('option', {value: ''}, 'automatic'));
  const task = k === 'speech' ? 'speech' : 'generate';
  for (const tier of (state.config ? state.config.tiers : [])) {
    if (tier.tasks.includes(task)) route.append(el('option', {value: tier.name}, tier.name));
  }
}

// A number when the field holds one; otherwise the text as typed, so the API reports it as a client would see it.
function numberOrText(id) {
  const value = document.getElementById(id).value.trim();
  if (value === '') return undefined;
  return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value) ? Number(value) : value;
}

function text(id) {
  const value = document.getElementById(id).value;
  return value.trim() === '' ? undefined : value;
}

function jobRequest() {
  const k = kind();
  const job = {
    requestId: text('f-requestId'),
    task: k === 'speech' ? 'speech' : 'generate',
    route: text('f-route'),
    callbackUrl: text('f-callbackUrl'),
    cache: document.getElementById('f-cache').checked ? true : undefined,
  };
  if (k === 'chat') {
    job.messages = [];
    if (text('f-system') !== undefined) job.messages.push({role: 'system', content: text('f-system')});
    job.messages.push({role: 'user', content: document.getElementById('f-user').value});
  } else {
    job.prompt = document.getElementById('f-prompt').value;
  }
  if (k === 'speech') {
    job.voice = text('f-voice');
  } else {
    job.maxTokens = numberOrText('f-maxTokens');
    job.temperature = numberOrText('f-temperature');
  }
  return job;
}

function clearErrors() {
  for (const node of document.querySelectorAll('#submit-form .field-error')) clear(node);
  clear(document.getElementById('submit-outcome'));
}

function showErrors(errors) {
  const general = document.getElementById('form-errors');
  for (const error of errors) {
    const field = String(error.field || '');
    const base = field.startsWith('messages') ? 'messages' : field;
    const target = document.getElementById('error-' + base);
    const line = (base !== field ? field + ': ' : '') + (error.message || error.code || 'invalid');
    if (target && target.tagName !== 'UL') {
      target.append(el('span', {class: 'message', dataset: {field, code: error.code}}, line));
    } else {
      general.append(el('li', {dataset: {field, code: error.code}}, (field ? field + ': ' : '') + line));
    }
  }
}

async function submitJob(event) {
  event.preventDefault();
  clearErrors();
  const outcome = document.getElementById('submit-outcome');
  const job = jobRequest();
  let response;
  try {
    response = await fetch('/v1/jobs', {
      method: 'POST', headers: withToken({'Content-Type': 'application/json'}), body: JSON.stringify(job),
    });
  } catch (e) {
    outcome.append('The API did not answer: ' + e.message);
    return;
  }
  const body = await response.json().catch(() => ({}));
  if (response.status === 202 || response.status === 200) {
    outcome.append(el('span', {}, 'Job '), el('a', {href: '#/job/' + body.requestId}, body.requestId),
        ' ' + (body.status || '') + (body.tier ? ' on tier ' + body.tier : ''));
    // the API's answer first: the list shows what the client was told before the next refresh
    upsertRow({requestId: body.requestId, status: body.status || 'queued', tier: body.tier, task: job.task,
      submittedAt: new Date().toISOString(), prompt: job.prompt || ''});
    refresh();
  } else if (Array.isArray(body.errors)) {
    outcome.append('HTTP ' + response.status + ': the API refused the job');
    showErrors(body.errors);
  } else {
    outcome.append('HTTP ' + response.status + ': ' + (body.message || JSON.stringify(body)));
  }
}

// ---- jobs list ----

function jobRow(job) {
  const markers = el('span', {class: 'markers'});
  if (job.cached) {
    markers.append(el('span', {class: 'marker cached', title: 'answered from the result cache'}, 'cached'));
  }
  if (job.batchId) markers.append(el('span', {class: 'marker batch', title: 'batch ' + job.batchId}, 'batch'));
  if (job.audio) markers.append(el('span', {class: 'marker audio'}, 'audio'));
  if (job.errorCode) markers.append(el('span', {class: 'marker error'}, job.errorCode));
  return el('tr', {dataset: {requestId: job.requestId}},
      el('td', {}, el('a', {href: '#/job/' + job.requestId, title: job.requestId, class: 'id'},
          job.requestId.substring(0, 8))),
      el('td', {class: 'status-cell'}, statusBadge(job.status)),
      el('td', {}, job.tier || ''),
      el('td', {}, job.task || ''),
      el('td', {class: 'prompt'}, job.prompt || ''),
      el('td', {}, time(job.submittedAt)),
      el('td', {}, duration(job.submittedAt, job.startedAt)),
      el('td', {}, duration(job.startedAt, job.finishedAt)),
      el('td', {}, markers));
}

function upsertRow(job) {
  const body = document.querySelector('#jobs-table tbody');
  const existing = body.querySelector('tr[data-request-id="' + CSS.escape(job.requestId) + '"]');
  const row = jobRow(job);
  row.dataset.pending = 'true';
  if (existing) existing.replaceWith(row); else body.prepend(row);
  document.getElementById('jobs-empty').hidden = true;
}

async function refreshJobs() {
  const {body} = await getJson('/console/api/jobs');
  const rows = body.jobs.map(jobRow);
  const tbody = document.querySelector('#jobs-table tbody');
  // rows the page showed from an answer but the console has not seen yet stay until it has
  const known = new Set(body.jobs.map(j => j.requestId));
  const pending = [...tbody.querySelectorAll('tr')].filter(tr => !known.has(tr.dataset.requestId)
      && tr.dataset.pending === 'true');
  tbody.replaceChildren(...pending, ...rows);
  document.getElementById('jobs-empty').hidden = rows.length > 0;
}

// ---- one job ----

function clearJob() {
  document.getElementById('job-id').textContent = state.jobId;
  for (const id of ['job-status', 'job-summary', 'job-error', 'job-request', 'job-trace', 'job-notifications']) {
    clear(document.getElementById(id));
  }
  clear(document.getElementById('job-result')).append(el('p', {class: 'hint'}, 'No result yet.'));
}

async function refreshJob() {
  if (state.jobTerminalPolls > 5) return;
  const id = state.jobId;
  const [api, seen] = await Promise.all([getJson('/v1/jobs/' + id), getJson('/console/api/jobs/' + id)]);
  if (id !== state.jobId) return;
  const job = api.status === 200 ? api.body : null;
  const status = clear(document.getElementById('job-status'));
  status.append(job ? statusBadge(job.status) : 'HTTP ' + api.status + ' ' + JSON.stringify(api.body));
  if (job) renderSummary(job);
  renderRequest(seen.body);
  renderTrace(seen.body.trace);
  renderNotifications(seen.body.notifications);
  if (job && ['succeeded', 'failed', 'cancelled'].includes(job.status)) {
    if (state.jobTerminalPolls === 0) renderResult(job);
    state.jobTerminalPolls++;
  }
}

function renderSummary(job) {
  const summary = clear(document.getElementById('job-summary'));
  const result = job.result || {};
  const items = [['tier', job.tier], ['task', job.task], ['submitted', time(job.submittedAt)],
    ['started', time(job.startedAt)], ['result', time(result.timestamp)],
    ['queued for', duration(job.submittedAt, job.startedAt)], ['ran for', duration(job.startedAt, result.timestamp)],
    ['model', result.model], ['attempts', result.attempts],
    ['cached', result.cached ? 'yes, from ' + result.cachedFrom : null],
    ['batch', result.batch ? result.batch.batchId : null]];
  for (const [name, value] of items) {
    if (value === undefined || value === null || value === '') continue;
    summary.append(el('dt', {}, name), el('dd', {}, value));
  }
  const error = clear(document.getElementById('job-error'));
  if (result.error) {
    error.append(el('p', {class: 'error-code'}, result.error.code + ': ', el('span', {}, result.error.message)));
    const list = el('ul');
    for (const f of result.error.fieldErrors || []) {
      list.append(el('li', {}, f.field + ' ' + f.code + ': ' + f.message));
    }
    if (list.childElementCount) error.append(list);
  }
}

function renderResult(job) {
  const target = clear(document.getElementById('job-result'));
  const output = (job.result || {}).result || {};
  if (job.audioUrl) {
    target.append(el('audio', {id: 'job-audio', controls: '', preload: 'auto', src: job.audioUrl}),
        el('p', {class: 'hint'}, 'WAV from S3 (a presigned URL the API answered, valid until '
            + time(job.linksExpireAt) + ')'));
  }
  if (output.text !== undefined) {
    target.append(el('pre', {id: 'job-text'}, output.text));
  }
  if (output.usage) {
    target.append(el('p', {class: 'hint'}, output.usage.promptTokens + ' prompt tokens, '
        + output.usage.completionTokens + ' completion tokens, finish reason ' + output.finishReason));
  }
  if (!target.childElementCount) target.append(el('p', {class: 'hint'}, 'No output (' + job.status + ').'));
}

function renderRequest(seen) {
  const target = clear(document.getElementById('job-request'));
  if (seen.request !== undefined) {
    target.append(el('pre', {id: 'job-request-body'}, JSON.stringify(seen.request, null, 2)));
  } else {
    target.append(el('p', {class: 'hint'}, 'Not seen by the API since the stack started '
        + '(sent straight to a queue, or before this console started).'));
  }
}

function renderTrace(trace) {
  const target = clear(document.getElementById('job-trace'));
  if (!trace.enabled) {
    target.append(el('p', {class: 'hint'},
        'No trace file: start the stack with --trace-file FILE to see where the time goes.'));
    return;
  }
  const spans = trace.spans || [];
  if (!spans.length) {
    target.append(el('p', {class: 'hint'}, 'No spans yet.'));
    return;
  }
  const total = Math.max(...spans.map(s => s.startMs + s.durationMs), 1);
  const table = el('table', {class: 'trace'}, el('thead', {}, el('tr', {},
      el('th', {}, 'service'), el('th', {}, 'span'), el('th', {}, 'start'), el('th', {}, 'took'),
      el('th', {class: 'bars'}, ''))));
  const body = el('tbody');
  for (const span of spans) {
    const name = el('td', {class: 'span-name'}, span.name);
    name.style.paddingLeft = (0.4 + span.depth * 1.2) + 'em';
    const bar = el('div', {class: 'bar service-' + span.service.replace(/[^a-z-]/g, '')});
    bar.style.marginLeft = (100 * span.startMs / total) + '%';
    bar.style.width = Math.max(0.5, 100 * span.durationMs / total) + '%';
    body.append(el('tr', {}, el('td', {}, span.service), name, el('td', {}, span.startMs.toFixed(1) + ' ms'),
        el('td', {}, span.durationMs.toFixed(1) + ' ms'), el('td', {class: 'bars'}, bar)));
  }
  table.append(body);
  target.append(table);
}

function renderNotifications(notifications) {
  const target = clear(document.getElementById('job-notifications'));
  if (!notifications.length) {
    target.append(el('p', {class: 'hint'},
        'None recorded yet (the notifier records each SNS event and callback it sent).'));
    return;
  }
  const list = el('ul', {class: 'notifications'});
  for (const n of notifications) list.append(el('li', {}, el('strong', {}, n.step), ' ', JSON.stringify(n.record)));
  target.append(list);
}

// ---- queues, workers, DLQ ----

function age(seconds) {
  if (seconds === undefined || seconds === null) return '';
  return seconds < 120 ? seconds + ' s' : Math.round(seconds / 60) + ' min';
}

async function refreshQueues() {
  const {body} = await getJson('/console/api/queues');
  document.querySelector('#queues-table tbody').replaceChildren(...body.queues.map(q =>
      el('tr', {dataset: {queue: q.name}}, el('td', {}, q.name), el('td', {}, q.deadLetter ? 'DLQ' : q.tier),
          el('td', {}, q.visible), el('td', {}, q.inFlight), el('td', {}, q.delayed),
          el('td', {}, age(q.oldestAgeSeconds)))));
  document.querySelector('#workers-table tbody').replaceChildren(...body.workers.map(w =>
      el('tr', {dataset: {tier: w.tier}}, el('td', {}, w.name), el('td', {}, w.pid),
          el('td', {}, statusBadge(w.state)), el('td', {}, w.restarts),
          el('td', {}, w.windowLimit === undefined ? '' : w.inFlight + ' / ' + w.windowLimit),
          el('td', {}, w.jobsPerSecond === undefined ? '' : w.jobsPerSecond.toFixed(1)),
          el('td', {class: 'detail'}, w.detail))));
  document.querySelector('#dlq-table tbody').replaceChildren(...body.deadLetters.map(d =>
      el('tr', {dataset: {messageId: d.messageId}},
          el('td', {class: 'id', title: d.messageId}, d.messageId.substring(0, 8)), el('td', {}, time(d.sentAt)),
          el('td', {}, d.receiveCount), el('td', {}, d.originalQueue || ''),
          el('td', {class: 'reason'}, d.reason || 'no ErrorReason (moved by the queue\'s redrive policy)'),
          el('td', {class: 'body'}, d.body))));
  document.getElementById('dlq-empty').hidden = body.deadLetters.length > 0;
  const select = document.getElementById('redrive-destination');
  if (select.options.length !== body.destinations.length) {
    select.replaceChildren(...body.destinations.map(name => el('option', {value: name}, name)));
  }
  document.querySelector('#tasks-table tbody').replaceChildren(...(body.moveTasks || []).map(t => el('tr', {},
      el('td', {}, time(t.startedAt)), el('td', {}, t.status),
      el('td', {}, (t.moved === undefined ? '?' : t.moved) + (t.toMove === undefined ? '' : ' of ' + t.toMove)),
      el('td', {}, (t.destinationArn || '').split(':').pop()), el('td', {}, t.failureReason || ''))));
}

async function redrive(event) {
  event.preventDefault();
  const outcome = clear(document.getElementById('redrive-outcome'));
  const response = await fetch('/console/api/dlq/redrive', {
    method: 'POST', headers: withToken({'Content-Type': 'application/json'}),
    body: JSON.stringify({destination: document.getElementById('redrive-destination').value}),
  });
  const body = await response.json().catch(() => ({}));
  outcome.append(response.status === 202 ? 'Move task started to ' + body.destination
      : 'HTTP ' + response.status + ': ' + ((body.errors || [])[0] || {}).message);
  refresh();
}

// ---- scaling ----

async function refreshScaling() {
  const {body} = await getJson('/console/api/scaling');
  const now = Date.now();
  const from = now - body.windowMinutes * 60000;
  const width = 820, height = 220, left = 40, bottom = 24, top = 10, right = 100;
  const max = Math.max(1, ...body.series.flatMap(s => s.points.map(p => p.value)));
  const x = t => left + (width - left - right) * (t - from) / (now - from);
  const y = v => top + (height - top - bottom) * (1 - v / max);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  svg.setAttribute('class', 'chart');
  const line = (x1, y1, x2, y2, cls) => {
    const l = document.createElementNS(SVG, 'line');
    for (const [k, v] of Object.entries({x1, y1, x2, y2})) l.setAttribute(k, v);
    l.setAttribute('class', cls);
    svg.append(l);
  };
  const label = (tx, ty, value, cls) => {
    const t = document.createElementNS(SVG, 'text');
    t.setAttribute('x', tx);
    t.setAttribute('y', ty);
    t.setAttribute('class', cls);
    t.textContent = value;
    svg.append(t);
  };
  for (let v = 0; v <= max; v += Math.max(1, Math.ceil(max / 4))) {
    line(left, y(v), width - right, y(v), 'grid');
    label(left - 6, y(v) + 4, v, 'axis y');
  }
  for (let m = body.windowMinutes; m >= 0; m -= 5) {
    label(x(now - m * 60000), height - 6, m ? '-' + m + ' min' : 'now', 'axis x');
  }
  body.series.forEach((series, i) => {
    const path = document.createElementNS(SVG, 'polyline');
    const points = [];
    series.points.forEach((p, j) => {
      const t = new Date(p.at).getTime();
      if (j > 0) points.push(x(t) + ',' + y(series.points[j - 1].value));
      points.push(x(t) + ',' + y(p.value));
    });
    path.setAttribute('points', points.join(' '));
    path.setAttribute('class', 'series series-' + i);
    // earlier series drawn wider, so that tiers publishing the same values stay visible under each other
    path.style.strokeWidth = String(2 + 2 * (body.series.length - 1 - i));
    svg.append(path);
    label(width - right + 12, top + 14 * (i + 1), series.tier, 'legend series-' + i);
  });
  clear(document.getElementById('scaling-chart')).append(svg);
  document.querySelector('#scaling-table tbody').replaceChildren(...body.series.map(s => {
    const last = s.points[s.points.length - 1] || {};
    return el('tr', {}, el('td', {}, s.tier), el('td', {}, last.value === undefined ? '' : last.value),
        el('td', {}, time(last.at)), el('td', {}, s.points.length));
  }));
  if (!body.series.length) {
    document.querySelector('#scaling-table tbody').append(el('tr', {}, el('td', {colspan: 4},
        'Nothing published yet: the scaling-metric function runs every --metric-interval seconds.')));
  }
}

// ---- usage ----

async function refreshUsage() {
  const {body} = await getJson('/console/api/usage');
  const rows = body.callers.map(c => {
    const t = c.total;
    return el('tr', {dataset: {owner: c.owner}}, el('td', {title: c.owner}, c.caller), el('td', {}, t.jobs.succeeded),
        el('td', {}, t.jobs.failed), el('td', {}, t.promptTokens), el('td', {}, t.completionTokens),
        el('td', {}, Number(t.inferenceSeconds).toFixed(1)), el('td', {}, t.cacheHits),
        el('td', {}, Number(t.estimatedCostUsd).toFixed(6)));
  });
  if (!rows.length) {
    rows.push(el('tr', {}, el('td', {colspan: 8}, 'No finished job of any caller this month yet.')));
  }
  document.querySelector('#usage-table tbody').replaceChildren(...rows);
  document.getElementById('usage-basis').textContent = 'Cost: ' + body.costBasis + '.';
}

// ---- start ----

async function start() {
  document.getElementById('token-form').addEventListener('submit', useToken);
  await begin();
}

// the page's views need the configuration: without it (no valid token yet) only the token form is live
async function begin() {
  const config = await getJson('/console/api/config');
  if (config.status !== 200) return;
  state.config = config.body;
  if (state.started) {
    refresh();
    return;
  }
  state.started = true;
  document.getElementById('f-kind').addEventListener('change', showKindFields);
  document.getElementById('submit-form').addEventListener('submit', submitJob);
  document.getElementById('redrive-form').addEventListener('submit', redrive);
  document.addEventListener('visibilitychange', refresh);
  window.addEventListener('hashchange', route);
  showKindFields();
  route();
  setInterval(refresh, REFRESH_MS);
}

document.addEventListener('DOMContentLoaded', start);
