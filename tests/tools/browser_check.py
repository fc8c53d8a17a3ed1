#!/usr/bin/python3
"""The lab's page in Debian's headless Chromium (tests/scripts/test_http.sh).

browser_check.py URL: logs in as admin, opens MDS1's and MDS2's consoles,
types `show switchname` and `?` and Tab and Ctrl-C as keys into the
terminal, brings MDS2's fcip1 up from its console and waits until the
page's topology shows MDS1's fcip1 trunking, and until a plot's data
changed. Every wait is on a condition, bounded. Prints what it checked;
exit 1 on the first failure.
"""
import re
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

URL = sys.argv[1]


def fail(msg, driver=None):
    print("FAIL: " + msg)
    if driver is not None:
        for sw in (0, 1):
            print("--- console %d ---\n%s" % (sw, driver.execute_script("return window.mdsim.text(%d)" % sw)))
    sys.exit(1)


def wait(driver, what, cond, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            v = cond()
        except Exception:  # the page not there yet
            v = None
        if v:
            return v
        time.sleep(0.1)
    fail("timed out waiting for " + what, driver)


def console_text(driver, sw):
    return driver.execute_script("return window.mdsim.text(arguments[0])", sw)


def type_keys(driver, sw, keys):
    area = driver.find_element(By.CSS_SELECTOR, "#console-%d .xterm-helper-textarea" % sw)
    area.send_keys(keys)


def main():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1600,1200"):
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        run(driver)
    finally:
        driver.quit()


def run(driver):
    driver.get(URL)
    wait(driver, "the login form", lambda: driver.find_element(By.ID, "login").is_displayed())
    driver.find_element(By.ID, "user").send_keys("admin")
    driver.find_element(By.ID, "password").send_keys("wrong")
    driver.find_element(By.ID, "login-button").click()
    wait(driver, "a refused login", lambda: "Login incorrect" in driver.find_element(By.ID, "login-error").text)
    print("ok: a wrong password is refused with 'Login incorrect'")
    cookies = driver.get_cookies()
    if any(c["name"] == "mdsim_session" for c in cookies):
        fail("a refused login left a session cookie")
    driver.find_element(By.ID, "user").clear()
    driver.find_element(By.ID, "user").send_keys("admin")
    driver.find_element(By.ID, "password").send_keys("admin")
    driver.find_element(By.ID, "login-button").click()
    wait(driver, "the lab", lambda: driver.find_element(By.ID, "lab").is_displayed(), timeout=40)
    # The browser may store the cookie a moment after the page has its
    # answer (seen on a loaded machine): wait for it, then check it.
    c = wait(driver, "the session cookie",
             lambda: [c for c in driver.get_cookies() if c["name"] == "mdsim_session"])
    if not c[0].get("httpOnly") or c[0].get("sameSite") != "Strict":
        fail("the session cookie is not HttpOnly and SameSite=Strict: %r" % c)
    print("ok: logged in; the cookie is HttpOnly, SameSite=Strict")

    wait(driver, "the topology", lambda: driver.find_elements(By.CSS_SELECTOR, "svg#topology g.switch"))
    names = [g.get_attribute("data-switch") for g in driver.find_elements(By.CSS_SELECTOR, "svg#topology g.switch")]
    if names != ["MDS1", "MDS2"]:
        fail("the topology draws %r" % names)
    if not driver.find_elements(By.CSS_SELECTOR, "svg#topology g.netsim"):
        fail("the topology draws no netsim", driver)
    print("ok: the topology draws MDS1, MDS2, their cables and the netsim")

    driver.find_element(By.ID, "open-0").click()
    wait(driver, "MDS1's prompt", lambda: console_text(driver, 0).rstrip().endswith("MDS1#"))
    type_keys(driver, 0, "show switchname\n")
    wait(driver, "show switchname's answer", lambda: "show switchname\nMDS1\nMDS1#" in console_text(driver, 0))
    print("ok: `show switchname` answers MDS1 in the browser's console")
    type_keys(driver, 0, "show ?")
    wait(driver, "help for show", lambda: "switchname" in console_text(driver, 0).split("show ?")[-1])

    # longer than the 24 rows: the pager asks for a space, once
    wait(driver, "the pager in the help", lambda: console_text(driver, 0).rstrip().endswith("--More--"))
    type_keys(driver, 0, " ")
    wait(driver, "the line typed again after help", lambda: console_text(driver, 0).rstrip().endswith("MDS1# show"))
    print("ok: `?` lists the keywords and gives the line back")
    driver.execute_script("window.mdsim.consoles[0].term.focus()")
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("c").key_up(Keys.CONTROL).perform()
    wait(driver, "a fresh prompt after Ctrl-C", lambda: re.search(r"MDS1# show *\nMDS1#$", console_text(driver, 0).rstrip()))
    type_keys(driver, 0, "sh\tswitchn\t\n")
    wait(driver, "Tab's completion",
         lambda: len(re.findall(r"MDS1# show switchname *\nMDS1\nMDS1#", console_text(driver, 0))) == 2)
    print("ok: Ctrl-C drops the line, Tab completes as on telnet")
    type_keys(driver, 0, "show running-config\n")
    wait(driver, "the pager", lambda: "--More--" in console_text(driver, 0))
    type_keys(driver, 0, "q")
    wait(driver, "the prompt after the pager", lambda: console_text(driver, 0).rstrip().endswith("MDS1#"))
    print("ok: the pager stops at --More-- and q leaves it")

    def tunnel_state():
        cells = driver.find_elements(By.CSS_SELECTOR, 'tr[data-tunnel="MDS1/fcip1"] td.state')
        return cells[0].get_attribute("data-state") if cells else None

    first = wait(driver, "MDS1's fcip1 on the page", tunnel_state)
    if first == "trunking":
        fail("MDS1's fcip1 trunks before MDS2's end was brought up")
    print("ok: the page shows MDS1 fcip1 %s before" % first)
    driver.find_element(By.ID, "open-1").click()
    wait(driver, "MDS2's prompt", lambda: console_text(driver, 1).rstrip().endswith("MDS2#"))
    type_keys(driver, 1, "configure terminal\ninterface fcip1\nno shutdown\nend\n")
    wait(driver, "MDS2 back at exec", lambda: console_text(driver, 1).rstrip().endswith("MDS2#"))
    wait(driver, "MDS1's fcip1 trunking on the page", lambda: tunnel_state() == "trunking", timeout=90)
    print("ok: after `no shutdown` on MDS2 the page shows MDS1 fcip1 trunking")

    def plot(group):
        cs = driver.find_elements(By.CSS_SELECTOR, 'canvas[data-plot="%s"]' % group)
        return (int(cs[0].get_attribute("data-samples")), int(cs[0].get_attribute("data-total"))) if cs else None

    s0 = wait(driver, "the MDS1.fcip1 plot", lambda: plot("MDS1.fcip1"))
    wait(driver, "the MDS1.fcip1 plot to take new samples", lambda: plot("MDS1.fcip1")[0] >= s0[0] + 2)
    wait(driver, "bytes through MDS1.fcip1 on its plot", lambda: plot("MDS1.fcip1")[1] > 0, timeout=90)
    print("ok: the MDS1.fcip1 plot moves: %d -> %d samples, %d bytes drawn" % (s0[0], *plot("MDS1.fcip1")))

    type_keys(driver, 0, "exit\n")
    wait(driver, "the console closed by exit", lambda: "[connection closed]" in console_text(driver, 0) or
         driver.find_element(By.CSS_SELECTOR, "#console-0 .status").text == "closed")
    print("ok: exit closes the console")


if __name__ == "__main__":
    main()
