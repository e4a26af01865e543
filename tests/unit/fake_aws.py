#!/usr/bin/env python3
"""fake_aws.py - local stand-ins for the AWS credential endpoints, for
test_credentials.c (started by the test, stopped by it).

Listens on 127.0.0.1 at a free port, prints the port on stdout, then serves:
  PUT  /latest/api/token                       IMDSv2 token (needs the TTL header)
  GET  /latest/meta-data/iam/security-credentials/        role name (needs the token)
  GET  /latest/meta-data/iam/security-credentials/role1   JSON credentials
  GET  /ecs/creds      container credentials (Authorization must be "ecs-token")
  POST /sts            STS AssumeRoleWithWebIdentity (token must be "good-token")
  GET  /slow           answers after 3 s (timeout tests)
  GET  /count?path=P   how many requests P has had
Credentials expire one hour from now. Nothing is logged.
"""
import datetime
import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COUNTS = {}
LOCK = threading.Lock()


def expiry(seconds=3600):
    t = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, code, body, ctype="text/plain"):
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def count(self):
        path = urllib.parse.urlparse(self.path).path
        with LOCK:
            COUNTS[path] = COUNTS.get(path, 0) + 1

    def do_PUT(self):
        self.count()
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        if self.path == "/latest/api/token" and self.headers.get(
                "X-aws-ec2-metadata-token-ttl-seconds"):
            return self.reply(200, "imds-token-1")
        self.reply(400, "bad token request")

    def do_GET(self):
        self.count()
        u = urllib.parse.urlparse(self.path)
        if u.path == "/count":
            p = urllib.parse.parse_qs(u.query).get("path", [""])[0]
            with LOCK:
                return self.reply(200, str(COUNTS.get(p, 0)))
        if u.path == "/slow":
            time.sleep(3)
            return self.reply(200, "late")
        if u.path.startswith("/latest/meta-data/iam/security-credentials/"):
            if self.headers.get("X-aws-ec2-metadata-token") != "imds-token-1":
                return self.reply(401, "no token")
            role = u.path.rsplit("/", 1)[1]
            if role == "":
                return self.reply(200, "role1\n")
            if role == "role1":
                return self.reply(200, json.dumps({
                    "Code": "Success", "Type": "AWS-HMAC", "AccessKeyId": "IMDSAKID",
                    "SecretAccessKey": "imds-secret-value", "Token": "imds-session-token",
                    "Expiration": expiry()}), "application/json")
            return self.reply(404, "no such role")
        if u.path == "/ecs/creds":
            if self.headers.get("Authorization") != "ecs-token":
                return self.reply(401, "unauthorized")
            return self.reply(200, json.dumps({
                "AccessKeyId": "ECSAKID", "SecretAccessKey": "ecs-secret-value",
                "Token": "ecs-session-token", "Expiration": expiry()}), "application/json")
        self.reply(404, "not found")

    def do_POST(self):
        self.count()
        n = int(self.headers.get("Content-Length") or 0)
        form = urllib.parse.parse_qs(self.rfile.read(n).decode())
        get = lambda k: form.get(k, [""])[0]
        if (self.path != "/sts" or get("Action") != "AssumeRoleWithWebIdentity"
                or get("WebIdentityToken") != "good-token" or not get("RoleArn")
                or not get("RoleSessionName")):
            return self.reply(400, "<ErrorResponse><Error><Type>Sender</Type>"
                              "<Code>InvalidIdentityToken</Code><Message>token rejected &amp; "
                              "logged</Message></Error></ErrorResponse>", "text/xml")
        self.reply(200, "<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult>"
                   "<Credentials><AccessKeyId>STSAKID</AccessKeyId>"
                   "<SecretAccessKey>sts-secret&amp;value</SecretAccessKey>"
                   "<SessionToken>sts-session-token</SessionToken>"
                   "<Expiration>%s</Expiration></Credentials>"
                   "</AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>"
                   % expiry(), "text/xml")


def main():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    print(srv.server_address[1], flush=True)
    # Exit when the parent closes our stdin (the test ended, even by a crash).
    threading.Thread(target=lambda: (sys.stdin.read(), srv.shutdown()), daemon=True).start()
    srv.serve_forever()


if __name__ == "__main__":
    main()
