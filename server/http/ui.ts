/**
 * Serves the built UI (renderer/dist) at `/` with a strict CSP: no inline script or style, no
 * eval, connections only to this server (at the address the page was opened from). Client-side routes fall back to
 * index.html.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler } from 'express';

/** The UI's Content-Security-Policy; `apiOrigin` is this server's own origin (or 'self'). */
export function uiContentSecurityPolicy(apiOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    // Video thumbnails in the composer and previews play the uploaded file from this server.
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src ${apiOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export function defaultUiDir(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    process.env.HERALD_UI_DIR,
    path.resolve(here, '../../renderer/dist'),
    path.resolve(here, '../renderer/dist'),
    path.resolve(process.cwd(), 'renderer/dist'),
  ];
  return candidates.find((d): d is string => Boolean(d) && fs.existsSync(path.join(d!, 'index.html')));
}

export function uiHandlers(dir: string, origin: () => string): RequestHandler[] {
  const index = path.join(dir, 'index.html');
  const csp: RequestHandler = (req, res, next) => {
    // The page may be opened as 127.0.0.1, localhost or [::1] (the Host guard let only these
    // through): it talks to the API at the address it was opened from.
    // A CSP source cannot name an IPv6 literal ("http://[::1]:4780" is dropped as invalid), so
    // there the page's own origin is said as 'self'.
    const host = req.headers.host?.toLowerCase();
    res.setHeader(
      'Content-Security-Policy',
      uiContentSecurityPolicy(!host ? origin() : host.startsWith('[') ? "'self'" : `http://${host}`),
    );
    next();
  };
  const fallback: RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/') || path.extname(req.path))
      return next();
    res.type('html').sendFile(index);
  };
  return [csp, express.static(dir, { index: 'index.html', fallthrough: true, dotfiles: 'deny', maxAge: 0 }), fallback];
}
