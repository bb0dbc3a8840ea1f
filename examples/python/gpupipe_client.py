#!/usr/bin/env python3
"""gpupipe client example: submit a job, poll it, fetch its result and verify its callback (Standard Webhooks).

Against AWS (Auth=IAM) each request is signed with SigV4 by botocore's signer, with the default credential chain;
against the local stack, or a stack deployed with Auth=JWT, pass --token to send a bearer token instead. Only the
standard library is needed besides botocore, and botocore only for SigV4.

    python3 gpupipe_client.py --api https://abc123.execute-api.eu-west-1.amazonaws.com --region eu-west-1
    python3 gpupipe_client.py --api http://localhost:8080 --token "$TOKEN" \\
        --callback-port 9099 --webhook-secret whsec_...
"""
import argparse
import base64
import hashlib
import hmac
import http.server
import json
import os
import queue
import sys
import threading
import time
import urllib.error
import urllib.request

TOLERANCE_SECONDS = 300


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--api", default="http://localhost:8080", help="the API's base URL")
    p.add_argument("--token", help="a bearer token (local stack, Auth=JWT); without it, https URLs are SigV4-signed")
    p.add_argument("--region", help="the API's region, for SigV4 (default: the AWS configuration's)")
    p.add_argument("--sigv4", action="store_true", help="sign with SigV4 even over http (the default for https)")
    p.add_argument("--job", default='{"task":"speech","prompt":"Hello from the Python example."}',
                   help="the job to submit, as JSON")
    p.add_argument("--callback-port", type=int, help="receive the callback on this local port")
    p.add_argument("--callback-url", help="the URL the API calls back (default: http://localhost:PORT/callback)")
    p.add_argument("--webhook-secret", help="the callback secret in its whsec_ form, to verify the callback")
    p.add_argument("--timeout", type=float, default=300, help="seconds to wait for the job and its callback")
    return p.parse_args(argv)


class Api:
    """The HTTP API, authenticated by bearer token, SigV4, or (local stack over http) not at all."""

    def __init__(self, base, token=None, region=None, sigv4=False):
        self.base = base.rstrip("/")
        self.token = token
        self.signer = None
        if token is None and (sigv4 or self.base.startswith("https://")):
            self.signer = sigv4_signer(region)

    def call(self, method, path_or_url, body=None):
        url = path_or_url if "://" in path_or_url else self.base + path_or_url
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if url.startswith(self.base + "/"):  # presigned result links carry their own signature
            if self.token:
                headers["Authorization"] = "Bearer " + self.token
            elif self.signer:
                headers = self.signer(method, url, data, headers)
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()


def sigv4_signer(region):
    """Signs like `aws` would: service execute-api, the default credential chain (botocore, imported only here)."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.session import Session

    session = Session()
    credentials = session.get_credentials()
    region = region or os.environ.get("AWS_REGION") or session.get_config_variable("region")
    if credentials is None or region is None:
        sys.exit("SigV4 needs AWS credentials and a region (--region or AWS_REGION), or pass --token")

    def sign(method, url, data, headers):
        request = AWSRequest(method=method, url=url, data=data, headers=headers)
        SigV4Auth(credentials.get_frozen_credentials(), "execute-api", region).add_auth(request)
        return dict(request.headers.items())

    return sign


def verify_callback(whsec, headers, body):
    """Standard Webhooks: v1 HMAC-SHA256 over id.timestamp.body under the whsec_ key, timestamp within 5 minutes."""
    msg_id, timestamp, signatures = (headers.get(h) for h in ("webhook-id", "webhook-timestamp", "webhook-signature"))
    if not (msg_id and timestamp and signatures) or abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    key = base64.b64decode(whsec.removeprefix("whsec_"))
    expected = base64.b64encode(hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest())
    return any(hmac.compare_digest(s.split(",", 1)[1].encode(), expected)
               for s in signatures.split() if s.startswith("v1,"))


def start_callback_receiver(port):
    """A one-path HTTP server on localhost whose requests land in the returned queue."""
    received = queue.Queue()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            received.put(({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, received


def main(argv):
    args = parse_args(argv)
    api = Api(args.api, args.token, args.region, args.sigv4)
    job = json.loads(args.job)
    server = received = None
    if args.callback_port:
        server, received = start_callback_receiver(args.callback_port)
        job["callbackUrl"] = args.callback_url or f"http://localhost:{args.callback_port}/callback"
    try:
        status, body = api.call("POST", "/v1/jobs", job)
        print(f"submit: HTTP {status} {body.decode()}")
        if status not in (200, 202):
            return 1
        request_id = json.loads(body)["requestId"]

        deadline = time.monotonic() + args.timeout
        while True:
            status, body = api.call("GET", f"/v1/jobs/{request_id}")
            job_status = json.loads(body) if status == 200 else {}
            print(f"poll: HTTP {status} status={job_status.get('status')}")
            if job_status.get("status") in ("succeeded", "failed", "cancelled"):
                break
            if time.monotonic() > deadline:
                print("the job did not finish in time")
                return 1
            time.sleep(1)

        if job_status.get("resultUrl"):
            status, body = api.call("GET", job_status["resultUrl"])
            print(f"result: HTTP {status} {body.decode()[:300]}")
            if status != 200:
                return 1

        if received is not None:
            headers, body = received.get(timeout=max(1, deadline - time.monotonic()))
            verified = args.webhook_secret and verify_callback(args.webhook_secret, headers, body)
            print(f"callback: webhook-id={headers.get('webhook-id')} verified={str(bool(verified)).lower()} "
                  f"{body.decode()}")
            if args.webhook_secret and not verified:
                return 1
        return 0 if job_status.get("status") == "succeeded" else 1
    except queue.Empty:
        print("no callback arrived in time")
        return 1
    finally:
        if server is not None:
            server.shutdown()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
