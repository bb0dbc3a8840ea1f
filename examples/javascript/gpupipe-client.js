#!/usr/bin/env node
// gpupipe client example: submit a job, poll it, fetch its result and verify its callback (Standard Webhooks).
//
// Against AWS (Auth=IAM) each request is signed with SigV4 by @smithy/signature-v4 (the signer inside the AWS SDK
// for JavaScript v3), with the default credential chain; against the local stack, or a stack deployed with
// Auth=JWT, pass --token to send a bearer token instead. Node 20 or later (its built-in fetch).
//
//   node gpupipe-client.js --api https://abc123.execute-api.eu-west-1.amazonaws.com --region eu-west-1
//   node gpupipe-client.js --api http://localhost:8080 --token "$TOKEN" --callback-port 9099 --webhook-secret whsec_...
"use strict";
const http = require("http");
const { parseArgs } = require("util");
const { Webhook } = require("standardwebhooks");

const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);

function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      api: { type: "string", default: "http://localhost:8080" },
      token: { type: "string" },
      region: { type: "string" },
      sigv4: { type: "boolean", default: false },
      job: { type: "string", default: '{"task":"speech","prompt":"Hello from the JavaScript example."}' },
      "callback-port": { type: "string" },
      "callback-url": { type: "string" },
      "webhook-secret": { type: "string" },
      timeout: { type: "string", default: "300" },
    },
  });
  return values;
}

// The HTTP API, authenticated by bearer token, SigV4, or (local stack over http) not at all.
function api(base, { token, region, sigv4 }) {
  base = base.replace(/\/+$/, "");
  const signer = !token && (sigv4 || base.startsWith("https://")) ? sigv4Signer(region) : null;
  return async (method, pathOrUrl, body) => {
    const url = new URL(pathOrUrl.includes("://") ? pathOrUrl : base + pathOrUrl);
    const data = body === undefined ? undefined : JSON.stringify(body);
    let headers = { accept: "application/json" };
    if (data !== undefined) headers["content-type"] = "application/json";
    if (url.href.startsWith(base + "/")) { // presigned result links carry their own signature
      if (token) headers.authorization = `Bearer ${token}`;
      else if (signer) headers = await signer(method, url, data, headers);
    }
    const response = await fetch(url, { method, headers, body: data });
    return { status: response.status, text: await response.text() };
  };
}

// Signs like the AWS SDK does: service execute-api, the default credential chain.
function sigv4Signer(region) {
  let SignatureV4, Sha256, defaultProvider;
  try {
    ({ SignatureV4 } = require("@smithy/signature-v4"));
    ({ Sha256 } = require("@aws-crypto/sha256-js"));
    ({ defaultProvider } = require("@aws-sdk/credential-provider-node"));
  } catch (e) {
    // optionalDependencies: absent after `npm ci --omit=optional`, which is all a --token user needs
    throw new Error("SigV4 needs the optional dependencies: run `npm ci` (without --omit=optional), or pass --token");
  }
  region = region || process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION;
  if (!region) throw new Error("SigV4 needs a region (--region or AWS_REGION), or pass --token");
  const signer = new SignatureV4({ service: "execute-api", region, credentials: defaultProvider(), sha256: Sha256 });
  return async (method, url, body, headers) => {
    const signed = await signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...headers, host: url.host },
      body,
    });
    const { host, ...rest } = signed.headers; // fetch sets Host itself
    return rest;
  };
}

// A one-path HTTP server on localhost; resolves with the first request's headers and raw body.
function callbackReceiver(port) {
  let resolve;
  const received = new Promise((r) => { resolve = r; });
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => {
      response.writeHead(204).end();
      resolve({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
    });
  });
  return new Promise((ok) => server.listen(port, "127.0.0.1", () => ok({ server, received })));
}

async function main(argv) {
  const args = options(argv);
  const call = api(args.api, args);
  const job = JSON.parse(args.job);
  const deadline = Date.now() + Number(args.timeout) * 1000;
  let receiver = null;
  if (args["callback-port"]) {
    receiver = await callbackReceiver(Number(args["callback-port"]));
    job.callbackUrl = args["callback-url"] || `http://localhost:${args["callback-port"]}/callback`;
  }
  try {
    let reply = await call("POST", "/v1/jobs", job);
    console.log(`submit: HTTP ${reply.status} ${reply.text}`);
    if (reply.status !== 200 && reply.status !== 202) return 1;
    const requestId = JSON.parse(reply.text).requestId;

    let status;
    for (;;) {
      reply = await call("GET", `/v1/jobs/${requestId}`);
      status = reply.status === 200 ? JSON.parse(reply.text) : {};
      console.log(`poll: HTTP ${reply.status} status=${status.status}`);
      if (TERMINAL.has(status.status)) break;
      if (Date.now() > deadline) { console.log("the job did not finish in time"); return 1; }
      await new Promise((r) => setTimeout(r, 1000));
    }

    if (status.resultUrl) {
      reply = await call("GET", status.resultUrl);
      console.log(`result: HTTP ${reply.status} ${reply.text.slice(0, 300)}`);
      if (reply.status !== 200) return 1;
    }

    if (receiver) {
      let timer;
      const timeout = new Promise((r) => { timer = setTimeout(() => r(null), Math.max(1000, deadline - Date.now())); });
      const callback = await Promise.race([receiver.received, timeout]);
      clearTimeout(timer); // a pending timer would keep node running until the deadline after the work is done
      if (!callback) { console.log("no callback arrived in time"); return 1; }
      let verified = false;
      if (args["webhook-secret"]) {
        try {
          new Webhook(args["webhook-secret"]).verify(callback.body, callback.headers);
          verified = true;
        } catch (e) {
          console.log(`callback refused: ${e.message}`);
        }
      }
      console.log(`callback: webhook-id=${callback.headers["webhook-id"]} verified=${verified} ${callback.body}`);
      if (args["webhook-secret"] && !verified) return 1;
    }
    return status.status === "succeeded" ? 0 : 1;
  } finally {
    if (receiver) {
      receiver.server.close();
      receiver.server.closeAllConnections();
    }
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e) => {
  console.error(e.message);
  process.exitCode = 1;
});
