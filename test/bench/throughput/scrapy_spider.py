"""Scrapy contender of the throughput benchmark: the same requests and parse as the bare loop.

Run by run.ts with the venv from scripts/bench-scrapy-venv.sh; reads SIMSITE_URL, BENCH_UIDS and
BENCH_CONCURRENCY, prints one JSON line {requests, elapsedMs, cpuMs, rssPeakMiB} on stdout.
The paging rules are those of paging.ts (the weibo adapter's).
"""
import json
import os
import re
import sys
import time

import scrapy
from scrapy.crawler import CrawlerProcess

BASE = os.environ["SIMSITE_URL"]
WORKLOAD = os.environ.get("BENCH_WORKLOAD", "json")
UIDS = json.loads(os.environ.get("BENCH_UIDS", "[]"))
ARTICLES = int(os.environ.get("BENCH_ARTICLES", "0"))
ARTICLE_LINK = re.compile(r"/news/\d+\.html$")
CONCURRENCY = int(os.environ.get("BENCH_CONCURRENCY", "64"))
DIGITS = re.compile(r"^\d+$")
counter = {"requests": 0, "failed": 0}


def timeline_url(uid, container_id, cursor):
    return f"{BASE}/api/container/getIndex?type=uid&value={uid}&containerid={container_id}{cursor}"


def next_cursor(body, page):
    data = body.get("data") or {}
    if body.get("ok") != 1 or not data.get("cards") or page >= 1000:
        return None
    info = data.get("cardlistInfo")
    if not info:
        return f"&page={page + 1}"
    since = info.get("since_id")
    if (isinstance(since, int) and not isinstance(since, bool) and since > 0) or (isinstance(since, str) and DIGITS.match(since)):
        return f"&since_id={since}"
    p = info.get("page")
    if isinstance(p, int) and not isinstance(p, bool) and p > page:
        return f"&page={p}"
    return None


class TimelineSpider(scrapy.Spider):
    name = "timelines"

    async def start(self):
        for uid in UIDS:
            yield scrapy.Request(f"{BASE}/api/container/getIndex?type=uid&value={uid}&containerid=100505{uid}",
                                 callback=self.profile, cb_kwargs={"uid": uid}, dont_filter=True, errback=self.failed)

    def failed(self, failure):
        counter["failed"] += 1

    def profile(self, response, uid):
        counter["requests"] += 1
        body = response.json()
        tabs = ((body.get("data") or {}).get("tabsInfo") or {}).get("tabs") or []
        cid = next((t.get("containerid") for t in tabs if t.get("tabKey") == "weibo" and t.get("containerid")), None) or f"107603{uid}"
        yield scrapy.Request(timeline_url(uid, cid, ""), callback=self.timeline, cb_kwargs={"uid": uid, "cid": cid, "page": 1},
                             dont_filter=True, errback=self.failed)

    def timeline(self, response, uid, cid, page):
        counter["requests"] += 1
        body = response.json()
        if body.get("ok") == 1:
            for card in (body.get("data") or {}).get("cards") or []:
                m = card.get("mblog") or {}
                if m.get("isLongText") and m.get("id"):
                    yield scrapy.Request(f"{BASE}/statuses/extend?id={m['id']}", callback=self.extend, dont_filter=True, errback=self.failed)
        cursor = next_cursor(body, page)
        if cursor is not None:
            yield scrapy.Request(timeline_url(uid, cid, cursor), callback=self.timeline,
                                 cb_kwargs={"uid": uid, "cid": cid, "page": page + 1}, dont_filter=True, errback=self.failed)

    def extend(self, response):
        counter["requests"] += 1
        response.json()


class ArticleSpider(scrapy.Spider):
    """The HTML workload (html.ts): every article page parsed (lxml via parsel), its article links
    requested through Scrapy's duplicate filter, which finds them all seen."""
    name = "articles"

    async def start(self):
        for i in range(1, ARTICLES + 1):
            yield scrapy.Request(f"{BASE}/news/{i}.html", callback=self.article, errback=self.failed)

    def failed(self, failure):
        counter["failed"] += 1

    def article(self, response):
        counter["requests"] += 1
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            if ARTICLE_LINK.search(url):
                yield scrapy.Request(url, callback=self.article, errback=self.failed)


def main():
    process = CrawlerProcess(settings={
        "LOG_LEVEL": "WARNING",
        "CONCURRENT_REQUESTS": CONCURRENCY,
        "CONCURRENT_REQUESTS_PER_DOMAIN": CONCURRENCY,
        "DOWNLOAD_DELAY": 0,
        "ROBOTSTXT_OBEY": False,
        "AUTOTHROTTLE_ENABLED": False,
        "COOKIES_ENABLED": False,
        "RETRY_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "REDIRECT_ENABLED": False,
        "USER_AGENT": "freshet-bench-scrapy",
    })
    process.crawl(ArticleSpider if WORKLOAD == "html" else TimelineSpider)
    t0 = time.perf_counter()
    c0 = time.process_time()
    process.start()
    elapsed_ms = (time.perf_counter() - t0) * 1000
    cpu_ms = (time.process_time() - c0) * 1000
    # VmHWM, as for the Node contenders: getrusage's maxrss carries the parent's size over fork+exec.
    with open("/proc/self/status") as f:
        rss_kib = int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1))
    if counter["failed"]:
        print(f"scrapy: {counter['failed']} requests failed", file=sys.stderr)
        sys.exit(1)
    print(json.dumps({"requests": counter["requests"], "elapsedMs": elapsed_ms, "cpuMs": cpu_ms, "rssPeakMiB": rss_kib / 1024}))


if __name__ == "__main__":
    main()
