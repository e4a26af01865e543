"""moto's S3 server handling one request at a time.

moto_server runs werkzeug with a thread per request, and moto checks
If-None-Match / If-Match and then stores the object as two steps without a
lock: two conditional PUTs racing can both succeed, which real S3 never
allows. The race tests (one winner of concurrent CREATE, no lost ALTER
update) test sqe's use of conditional writes, so they run against this
serial server, where each PUT's check and store happen together.

Usage: python3 moto_serial.py HOST PORT
"""
import sys

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import run_simple

if __name__ == "__main__":
    app = DomainDispatcherApplication(create_backend_app)
    run_simple(sys.argv[1], int(sys.argv[2]), app, threaded=False, use_reloader=False)
