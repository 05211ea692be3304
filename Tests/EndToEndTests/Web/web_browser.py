#!/usr/bin/env python3
"""Drives tonenode's live page (`run --web`) in headless Chromium for WebPageTests.swift.

Usage: web_browser.py URL SCREENSHOT.png STEP...
Steps, each printing one JSON line on stdout when done (the Swift test holds
them against the node's own JSON lines):
  read           the frequency the page shows and the report time it belongs to
  await HZ       the same, once the page shows HZ (within 0.01 Hz)
  set HZ         types HZ into the frequency field, presses set, waits for the page's answer
  bad LINE       sends LINE as a raw command, waits for the page's answer (the reason)
  message TEXT   waits until the page lists a message holding TEXT
  shot           saves the screenshot
Every wait is bounded (10 s) and ends in a line with "timeout" rather than a hang.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

WAIT_S = 10


def say(**fields):
    print(json.dumps(fields), flush=True)


def wait_for(condition):
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return None


def main():
    url, screenshot, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,1180", "--no-first-run", "--disable-extensions"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        driver.set_page_load_timeout(WAIT_S)
        driver.get(url)
        answer = lambda: driver.find_element(By.ID, "control-answer").text
        while steps:
            step = steps.pop(0)
            if step in ("read", "await"):
                near = float(steps.pop(0)) if step == "await" else None

                def shown():
                    element = driver.find_element(By.ID, "freq")
                    text, time_s = element.text, element.get_attribute("data-time-s")
                    if not time_s or text in ("", "–"):
                        return None
                    if near is not None and abs(float(text) - near) > 0.01:
                        return None
                    return text, time_s
                got = wait_for(shown)
                say(step=step, shown=got[0] if got else None, time_s=float(got[1]) if got else None,
                    connection=driver.find_element(By.ID, "connection").text, timeout=got is None)
            elif step in ("set", "bad"):
                argument = steps.pop(0)
                before = answer()
                if step == "set":
                    field = driver.find_element(By.ID, "c-frequency")
                    field.clear()
                    field.send_keys(argument)
                    driver.find_element(By.CSS_SELECTOR, "#f-frequency button").click()
                else:
                    field = driver.find_element(By.ID, "c-raw")
                    field.clear()
                    field.send_keys(argument)
                    driver.find_element(By.CSS_SELECTOR, "#f-raw button").click()
                got = wait_for(lambda: answer() if answer() != before and answer() else None)
                say(step=step, answer=got, timeout=got is None)
            elif step == "message":
                text = steps.pop(0)
                got = wait_for(lambda: text in driver.find_element(By.ID, "messages").text)
                say(step="message", shown=driver.find_element(By.ID, "messages").text, timeout=got is None)
            elif step == "shot":
                if driver.find_element(By.TAG_NAME, "body").get_attribute("data-command") == "run":
                    wait_for(lambda: len(driver.execute_script("return window.toneWeb.history")) > 40)
                driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
                driver.save_screenshot(screenshot)
                say(step="shot", path=screenshot)
            else:
                say(step=step, error="unknown step")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
