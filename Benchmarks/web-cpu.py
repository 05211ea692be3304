#!/usr/bin/env python3
"""CPU cost of `tonenode run --web` (issue 41), in one run.

    python3 Benchmarks/web-cpu.py [--tonenode PATH] [--seconds S] [--rounds R]

Starts a private jackd (dummy driver, 48 kHz, 256 frames) and two nodes on it,
each in a self-loop at the same settings: A plain (`--json` to /dev/null),
B the same with `--web 0`. For each case (B with no page, one page, 20 pages:
headless Chromium windows drawing at up to 30 frames a second) it samples both
nodes' CPU time (utime + stime from /proc) over the same S seconds, R rounds,
and prints a markdown table: CPU % of one core for A and B and their ratio
(median of the rounds). Both nodes see the same machine noise at the same time.
Needs jackd, chromium, chromium-driver and selenium (scripts/install-deps).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for(condition, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    sys.exit("timed out")


def browser(url, pages):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000",
                 "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                 "--disable-backgrounding-occluded-windows"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    for index in range(pages):
        if index:
            driver.switch_to.new_window("window")
        driver.get(url)
    # Every page live and drawing: its history has readings.
    for handle in driver.window_handles:
        driver.switch_to.window(handle)
        wait_for(lambda: driver.execute_script("return window.toneWeb && window.toneWeb.history.length > 5"))
    return driver


def main():
    parser = argparse.ArgumentParser()
    default = os.path.join(ROOT, ".build/release/tonenode")
    parser.add_argument("--tonenode", default=default if os.path.exists(default) else os.path.join(ROOT, ".build/debug/tonenode"))
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    server = f"webbench{os.getpid()}"
    env = dict(os.environ, JACK_NO_AUDIO_RESERVATION="1")
    jackd = subprocess.Popen(["jackd", "-n", server, "-d", "dummy", "-r", "48000", "-p", "256"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    nodes = []
    driver = None
    try:
        wait_for(lambda: subprocess.run(["jack_lsp", "-s", server], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, env=env).returncode == 0)
        common = ["run", "-s", server, "--json", "--hop", "1024"]
        plain = subprocess.Popen([args.tonenode] + common + ["-n", "plain", "--connect-out", "plain:in"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        web_err = open(f"/tmp/{server}-web.err", "w+")
        web = subprocess.Popen([args.tonenode] + common + ["-n", "web", "--connect-out", "web:in", "--web", "0"],
                               stdout=subprocess.DEVNULL, stderr=web_err, env=env)
        nodes = [plain, web]

        def url():
            web_err.seek(0)
            for line in web_err.read().splitlines():
                if "web: http://" in line:
                    return line.split("web: ", 1)[1].split()[0]
            return None
        page = wait_for(url)
        time.sleep(2)  # both nodes past their start-up
        rows = []
        for pages in [0, 1, 20]:
            if driver:
                driver.quit()
                driver = None
            if pages:
                driver = browser(page, pages)
            samples = []
            for _ in range(args.rounds):
                before = [cpu_seconds(n.pid) for n in nodes]
                time.sleep(args.seconds)
                after = [cpu_seconds(n.pid) for n in nodes]
                samples.append([(b - a) / args.seconds * 100 for a, b in zip(before, after)])
            a = statistics.median(s[0] for s in samples)
            b = statistics.median(s[1] for s in samples)
            ratio = statistics.median(s[1] / s[0] for s in samples if s[0] > 0)
            rows.append((pages, a, b, ratio))
        print(f"tonenode: {args.tonenode}; {args.rounds} rounds of {args.seconds:g} s; "
              f"jackd dummy 48 kHz, 256 frames; --hop 1024; machine: {os.cpu_count()} cores")
        print()
        print("| pages open on B | A: no --web (% of a core) | B: --web (% of a core) | B / A |")
        print("|---|---|---|---|")
        for pages, a, b, ratio in rows:
            print(f"| {pages} | {a:.2f} | {b:.2f} | {ratio:.2f}× |")
    finally:
        if driver:
            driver.quit()
        for node in nodes:
            node.terminate()
            node.wait(timeout=10)
        jackd.terminate()
        jackd.wait(timeout=10)


if __name__ == "__main__":
    main()
