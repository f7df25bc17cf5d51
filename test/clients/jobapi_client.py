"""
A Job API client written the way users of that API write theirs (requests for realtime and
push-pull, aiohttp for the async variant), run against a live Gleaner by
test/integration/python-client.test.ts. Only the base URLs differ from the reference service.

Environment: GLEANER_REALTIME_URL, GLEANER_DATA_URL, GLEANER_USER, GLEANER_PASSWORD, SITE_URL.
"""
import asyncio
import os
import time
import unittest

import aiohttp
import requests

REALTIME = os.environ["GLEANER_REALTIME_URL"]
DATA = os.environ["GLEANER_DATA_URL"]
AUTH = (os.environ["GLEANER_USER"], os.environ["GLEANER_PASSWORD"])
SITE = os.environ["SITE_URL"]


class ApiError(Exception):
    """What SDKs of this API raise: built from the error body's `message`."""

    def __init__(self, status, body):
        super().__init__(f"{status}: {body['message']}")
        self.status = status
        self.body = body


def check(response):
    if response.status_code >= 400:
        raise ApiError(response.status_code, response.json())
    return response.json()


class Realtime(unittest.TestCase):
    def test_universal(self):
        payload = {"source": "universal", "url": f"{SITE}/static", "user_agent_type": "desktop"}
        data = check(requests.post(f"{REALTIME}/v1/queries", auth=AUTH, json=payload, timeout=60))
        self.assertEqual(data["job"]["status"], "done")
        self.assertEqual(data["results"][0]["status_code"], 200)
        self.assertIn("<h1", data["results"][0]["content"])

    def test_extra_keys_are_ignored_with_a_warning(self):
        payload = {"source": "universal", "url": f"{SITE}/static", "client_version": "1.2.3"}
        data = check(requests.post(f"{REALTIME}/v1/queries", auth=AUTH, json=payload, timeout=60))
        self.assertEqual([w["pointer"] for w in data["job"]["warnings"]], ["#/client_version"])

    def test_error_path_reports_message(self):
        with self.assertRaises(ApiError) as caught:
            check(requests.post(f"{REALTIME}/v1/queries", auth=AUTH, json={"source": "no_such_source", "url": f"{SITE}/static"}, timeout=60))
        self.assertEqual(caught.exception.status, 400)
        self.assertEqual(caught.exception.body["title"], "VALIDATION_ERROR")
        self.assertIn("message", caught.exception.body)
        self.assertEqual(caught.exception.body["errors"][0]["pointer"], "#/source")

    def test_wrong_password_is_401(self):
        r = requests.post(f"{REALTIME}/v1/queries", auth=(AUTH[0], "wrong"), json={"source": "universal", "url": f"{SITE}/static"}, timeout=60)
        self.assertEqual(r.status_code, 401)


class PushPull(unittest.TestCase):
    def test_submit_poll_results(self):
        job = check(requests.post(f"{DATA}/v1/queries", auth=AUTH, json={"source": "universal", "url": f"{SITE}/static"}, timeout=60))
        links = {link["rel"]: link["href"] for link in job["_links"]}
        deadline = time.time() + 60
        while job["status"] == "pending" and time.time() < deadline:
            time.sleep(0.1)
            job = check(requests.get(links["self"], auth=AUTH, timeout=60))
        self.assertEqual(job["status"], "done")
        results = check(requests.get(links["results"], auth=AUTH, timeout=60))["results"]
        self.assertIn("<h1", results[0]["content"])

    def test_unknown_job_reports_message(self):
        with self.assertRaises(ApiError) as caught:
            check(requests.get(f"{DATA}/v1/queries/1234567890123456789", auth=AUTH, timeout=60))
        self.assertEqual(caught.exception.status, 404)
        self.assertTrue(caught.exception.body["message"])

    def test_stats(self):
        stats = check(requests.get(f"{DATA}/v2/stats", auth=AUTH, timeout=60))
        self.assertIn("products", stats["data"])


class AsyncClient(unittest.TestCase):
    def test_aiohttp_realtime_and_push_pull(self):
        async def run():
            auth = aiohttp.BasicAuth(*AUTH)
            async with aiohttp.ClientSession(auth=auth) as session:
                async with session.post(f"{REALTIME}/v1/queries", json={"source": "universal", "url": f"{SITE}/static"}) as r:
                    self.assertEqual(r.status, 200)
                    realtime = await r.json()
                async with session.post(f"{DATA}/v1/queries", json={"source": "universal", "url": f"{SITE}/static/next"}) as r:
                    job = await r.json()
                self_href = next(link["href"] for link in job["_links"] if link["rel"] == "self")
                for _ in range(600):
                    if job["status"] != "pending":
                        break
                    await asyncio.sleep(0.1)
                    async with session.get(self_href) as r:
                        job = await r.json()
                async with session.post(f"{REALTIME}/v1/queries", json={"source": "universal"}) as r:
                    error = (r.status, await r.json(content_type=None))
                return realtime, job, error

        realtime, job, (status, error) = asyncio.run(run())
        self.assertEqual(realtime["job"]["status"], "done")
        self.assertEqual(job["status"], "done")
        self.assertEqual(status, 400)
        self.assertEqual(error["message"], error["detail"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
