"""Runs named flows of a stock Python client and prints one `FLOW {json}` line per flow for the node test.

Only the harness lives here: every call a flow makes is the stock client's own, unmodified.
"""
import json
import os
import sys
import time
import traceback

ENV = json.loads(os.environ["FLOWS_ENV"])
# The engine and the market every client script trades on (the node test creates both).
HOST, MARKET = ENV["host"], ENV["market"]
YES, NO = MARKET["tokenIds"]


def flow(name):
    def run(fn):
        started = time.time()
        try:
            detail = fn()
            line = {"name": name, "ok": True, "ms": int((time.time() - started) * 1000)}
            if detail is not None:
                line["detail"] = detail
        except Exception as e:  # noqa: BLE001 - every failure is reported, with its type and message
            line = {"name": name, "ok": False, "error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()[-1500:]}
        print("FLOW " + json.dumps(line, default=str), flush=True)
        return fn

    return run


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def raises(fn, *, status=None, contains=None):
    """Calls fn, which must raise the client's API exception; returns it."""
    try:
        got = fn()
    except Exception as e:  # noqa: BLE001
        text = str(e) + " " + str(getattr(e, "error_msg", ""))
        if status is not None:
            check(getattr(e, "status_code", None) == status, f"status {getattr(e, 'status_code', None)} != {status}: {text}")
        if contains is not None:
            check(contains in text, f"{contains!r} not in {text!r}")
        return e
    raise AssertionError(f"expected an error, got {got!r}")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def ask(**request):
    """Asks the node test for something only it can do (such as trading on the upstream); returns its answer."""
    print("ASK " + json.dumps(request), flush=True)
    answer = json.loads(sys.stdin.readline())
    if not answer["ok"]:
        raise AssertionError(f"the node side could not {request}: {answer['error']}")
    return answer.get("value")


def wait_for(what, probe, timeout=15.0):
    """Polls probe() until it returns something truthy; returns that."""
    deadline = time.time() + timeout
    while True:
        got = probe()
        if got:
            return got
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
