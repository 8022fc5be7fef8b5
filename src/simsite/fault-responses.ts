import { softErrorBody, type FaultDecision } from './faults';
import type { SimResponse } from './http-types';
import { htmlResponse, jsonResponse } from './http-types';

/**
 * What a refusing server answers, per fault, in the style of the site the path belongs to:
 * 418 with an empty body and no Retry-After (microblog), 429 with Discourse's JSON, 403 with the
 * Q&A site's risk-control code. Null for faults that are not an answer of their own.
 */
export function faultResponse(decision: FaultDecision, pathname: string, rawUrl: string): SimResponse | null {
  switch (decision.kind) {
    case 'rateLimit': {
      const headers: Record<string, string> = {};
      if (decision.retryAfterSec !== null) headers['retry-after'] = String(decision.retryAfterSec);
      let r: SimResponse;
      if (decision.status === 403 && pathname.startsWith('/api/v4/')) {
        r = jsonResponse({ error: { message: '您当前请求存在异常，暂时限制本次访问。如有疑问，您可以通过手机摇一摇或登录后私信知乎小管家反馈。', code: 40362 } }, 403);
      } else if (decision.status === 429) {
        const wait = decision.retryAfterSec ?? 0;
        r = jsonResponse({
          errors: ['You’ve performed this action too many times. Please wait a few seconds before trying again.'],
          error_type: 'rate_limit', extras: { wait_seconds: wait, time_left: `${wait} seconds` },
        }, 429);
        headers['discourse-rate-limit-error-code'] = 'ip_10_secs_limit';
      } else {
        r = { status: decision.status, headers: { 'content-type': 'text/html' }, body: '', kind: 'empty' };
      }
      return { ...r, headers: { ...r.headers, ...headers } };
    }
    case 'serverError':
      return htmlResponse(`<html><body><h1>${decision.status} Service Unavailable</h1></body></html>`, 'text/html', decision.status);
    case 'loginRedirect':
      return { status: 302, headers: { location: `/signin/welcome?entry=mweibo&r=${encodeURIComponent(rawUrl)}` }, body: '', kind: 'empty' };
    case 'redirectLoop': {
      // Every hop points at the same page with a growing counter: a client that follows redirects never gets it.
      const m = /([?&])_hop=(\d+)/.exec(rawUrl);
      const next = m ? rawUrl.replace(/([?&])_hop=\d+/, `$1_hop=${Number(m[2]) + 1}`) : `${rawUrl}${rawUrl.includes('?') ? '&' : '?'}_hop=1`;
      return { status: 302, headers: { location: next }, body: '', kind: 'empty' };
    }
    case 'blockedUserAgent':
      return { status: 432, headers: { 'content-type': 'text/html' }, body: '', kind: 'empty' };
    case 'softError':
      if (decision.soft === 'http432') return { status: 432, headers: { 'content-type': 'text/html' }, body: '', kind: 'empty' };
      if (decision.soft === 'captcha_html') return captchaPage(rawUrl);
      return jsonResponse(softErrorBody(decision.soft, rawUrl));
    default:
      return null;
  }
}

export function loginPage(target: string): SimResponse {
  return htmlResponse(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>登录 - 新浪微博</title></head>
<body><form class="login" action="/signin/login" method="post"><input name="username"><input name="password" type="password">
<input type="hidden" name="r" value="${target.replace(/"/g, '&quot;')}"><button>登录</button></form></body></html>`);
}

/** An HTML verification page answered with HTTP 200 where JSON was asked for [INF: the markers crawlers match, spec §1.7]. */
export function captchaPage(target: string): SimResponse {
  return htmlResponse(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>安全验证 - 微博</title></head>
<body><div class="verify"><p>请输入验证码以继续访问</p><img src="/captcha/img?r=${encodeURIComponent(target)}"><form action="/captcha/verify"><input name="code"></form></div></body></html>`);
}
