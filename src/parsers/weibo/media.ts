import { readCount } from './counts';

/** The picture and video fields of a post object (spec §1.4, captures 2019–2022). */
export interface MediaFields {
  pic_ids?: unknown;
  pic_num?: unknown;
  pics?: unknown;
  thumbnail_pic?: unknown;
  page_info?: unknown;
}

export interface Picture {
  id: string;
  /** The full-size picture (`large`). */
  url: string;
  /** The small one lists show (`orj360` / `thumbnail`). */
  thumbnail_url?: string;
  /** An animated picture's video (`type: "gifvideos"`). */
  video_url?: string;
}

export interface Video {
  url?: string;
  /** Cover picture. */
  cover_url?: string;
  /** The video page on the site. */
  page_url?: string;
  title?: string;
  duration_secs?: number;
  play_count?: number;
  /** `"100万+次播放"`: the real count is at least play_count. */
  play_count_is_lower_bound?: boolean;
}

export interface Media {
  pictures: Picture[];
  /** Pictures the post has (`pic_num`), which can exceed those listed (lists show 9 of up to 18). */
  picture_count: number;
  video?: Video;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
/** Picture ids are short base62-ish tokens; anything else is not used to build a URL. */
const PID = /^[0-9A-Za-z]{8,64}$/;

/** `https://wx1.sinaimg.cn/orj360/x.jpg` → the same picture in another size. */
function resized(url: string, size: string): string {
  return url.replace(/(\.sinaimg\.cn\/)[a-z0-9_]+(\/)/i, `$1${size}$2`);
}

function picturesOf(m: MediaFields): Picture[] {
  const out: Picture[] = [];
  const seen = new Set<string>();
  if (Array.isArray(m.pics)) {
    for (const raw of m.pics) {
      const p = obj(raw);
      if (!p) continue;
      const small = str(p['url']);
      const large = str(obj(p['large'])?.['url']) ?? (small ? resized(small, 'large') : undefined);
      const id = str(p['pid']) ?? (large ? /\/([^/.]+)\.[a-z]+$/i.exec(large)?.[1] : undefined);
      if (!large || !id || seen.has(id)) continue;
      seen.add(id);
      const video = str(p['videoSrc']);
      out.push({ id, url: large, ...(small ? { thumbnail_url: small } : {}), ...(video ? { video_url: video } : {}) });
    }
  }
  if (Array.isArray(m.pic_ids)) {
    // Some lists send ids without `pics`: the host of the first picture (or a default) serves the others too.
    const first = str(m.thumbnail_pic);
    const host = (first && /^(https?:\/\/[^/]+\.sinaimg\.cn)\//.exec(first)?.[1]) ?? 'https://wx1.sinaimg.cn';
    const ext = (first && /\.(gif|jpg|png)$/i.exec(first)?.[1]) ?? 'jpg';
    for (const raw of m.pic_ids) {
      if (typeof raw !== 'string' || !PID.test(raw) || seen.has(raw)) continue;
      seen.add(raw);
      out.push({ id: raw, url: `${host}/large/${raw}.${ext}`, thumbnail_url: `${host}/thumbnail/${raw}.${ext}` });
    }
  }
  return out;
}

function durationSecs(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function videoOf(m: MediaFields): Video | undefined {
  const page = obj(m.page_info);
  if (!page || page['type'] !== 'video') return undefined;
  const info = obj(page['media_info']) ?? {};
  const urls = obj(page['urls']) ?? {};
  const url = str(info['stream_url_hd']) ?? str(info['mp4_720p_mp4']) ?? str(urls['mp4_720p_mp4']) ?? str(urls['mp4_hd_mp4'])
    ?? str(info['mp4_hd_url']) ?? str(info['stream_url']) ?? str(urls['mp4_ld_mp4']) ?? str(info['mp4_sd_url']) ?? str(info['h5_url']);
  const plays = readCount(page['play_count'] ?? info['online_users_number']);
  const v: Video = {
    url,
    cover_url: str(obj(page['page_pic'])?.['url']),
    page_url: str(page['page_url']),
    title: str(page['title']) ?? str(info['name']) ?? str(page['page_title']),
    duration_secs: durationSecs(info['duration']),
    play_count: plays?.value,
    play_count_is_lower_bound: plays?.atLeast ? true : undefined,
  };
  return v.url || v.page_url ? v : undefined;
}

/** Pictures (largest URL, thumbnail) and the video of a post; empty lists when it has none. */
export function mediaOf(m: MediaFields): Media {
  const pictures = picturesOf(m);
  const declared = typeof m.pic_num === 'number' && Number.isInteger(m.pic_num) && m.pic_num >= 0 ? m.pic_num : 0;
  const video = videoOf(m);
  return { pictures, picture_count: Math.max(declared, pictures.length), ...(video ? { video } : {}) };
}
