/**
 * A corpus of generated upload files, each labelled with whether Herald must accept it. Valid
 * files of every allowed type (under misleading names and declared types), and hostile ones:
 * SVG, HTML and scripts named as images, polyglots, truncated and empty files, other formats,
 * pixel and frame bombs.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { gif, jpeg, png, PNG_SIG, video, webp } from './media-files.js';

export interface CorpusFile {
  label: string;
  data: Buffer;
  filename: string;
  type: string;
  accept: boolean;
}

const MISLEADING: [string, string][] = [
  ['photo.png', 'image/png'],
  ['clip.mp4', 'video/mp4'],
  ['index.html', 'text/html'],
  ['run.sh', 'application/x-sh'],
  ['pic.svg', 'image/svg+xml'],
  ['noext', 'application/octet-stream'],
  ['x.gif', 'image/gif'],
  ['a.jpg', 'image/jpeg'],
];
const disguise = (i: number) => MISLEADING[i % MISLEADING.length];

function valid(): Omit<CorpusFile, 'filename' | 'type'>[] {
  const out: Omit<CorpusFile, 'filename' | 'type'>[] = [];
  const dims: [number, number][] = [
    [1, 1],
    [16, 9],
    [640, 480],
    [1080, 1350],
    [8192, 4882],
    [4000, 3000],
    [8192, 1],
    [1, 8192],
    [6324, 6324],
    [300, 300],
  ];
  for (const [w, h] of dims) out.push({ label: `png ${w}x${h}`, data: png(w, h, 100), accept: true });
  for (const [w, h] of dims) out.push({ label: `jpeg ${w}x${h}`, data: jpeg(w, h, 200), accept: true });
  for (const [w, h] of dims.slice(0, 6))
    out.push({ label: `gif ${w}x${h}`, data: gif(w, h, 1 + (w % 5)), accept: true });
  out.push({ label: 'gif 1000 frames', data: gif(10, 10, 1000), accept: true });
  for (const kind of ['VP8 ', 'VP8L', 'VP8X'] as const) {
    for (const [w, h] of [
      [1, 1],
      [800, 600],
      [4000, 2000],
    ])
      out.push({ label: `webp ${kind} ${w}x${h}`, data: webp(w, h, kind), accept: true });
  }
  for (const n of [0, 1, 100, 5000, 100_000]) {
    out.push({ label: `mp4 mdat ${n}`, data: video('mp4', n), accept: true });
    out.push({ label: `mov mdat ${n}`, data: video('mov', n), accept: true });
  }
  return out;
}

const html = (s: string) => Buffer.from(s, 'utf8');
const zipLocalHeader = Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1'), crypto.randomBytes(60)]);

function hostile(): Omit<CorpusFile, 'filename' | 'type'>[] {
  const out: Omit<CorpusFile, 'filename' | 'type'>[] = [];
  const bad = (label: string, data: Buffer) => out.push({ label, data, accept: false });
  // SVG and markup
  bad(
    'svg',
    html('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'),
  );
  bad(
    'svg with xml prolog',
    html('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  );
  bad(
    'svg with BOM',
    Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      html('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    ]),
  );
  bad('svgz', zlib.gzipSync(html('<svg xmlns="http://www.w3.org/2000/svg"/>')));
  bad('html', html('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>'));
  bad('html uppercase', html('<HTML><BODY onload=alert(1)></BODY></HTML>'));
  bad('html after whitespace', html('\n\n   <html><script>fetch("/api/v1/me")</script></html>'));
  bad('html fragment', html('<script>alert(1)</script>'));
  bad('xhtml', html('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>1</script></html>'));
  // Scripts named as images
  bad('javascript', html('alert(1); fetch("http://169.254.169.254/");'));
  bad('shell script', html('#!/bin/sh\nrm -rf ~\n'));
  bad('php', html('<?php system($_GET["c"]); ?>'));
  bad('python', html('#!/usr/bin/env python3\nimport os\nos.system("id")\n'));
  bad('batch', html('@echo off\r\ndel /q C:\\*\r\n'));
  // Polyglots
  bad('GIFAR (gif + zip)', Buffer.concat([gif(8, 8), zipLocalHeader]));
  bad('PNG + HTML after IEND', Buffer.concat([png(8, 8), html('<html><script>alert(1)</script></html>')]));
  bad('PNG + ZIP after IEND', Buffer.concat([png(8, 8), zipLocalHeader]));
  bad('WebP + ZIP', Buffer.concat([webp(8, 8), zipLocalHeader]));
  bad(
    'PNG with HTML in the first bytes',
    Buffer.concat([PNG_SIG, html('<html><script>alert(1)</script></html>'), png(8, 8).subarray(8)]),
  );
  bad('JPEG + ZIP after EOI', Buffer.concat([jpeg(8, 8), zipLocalHeader]));
  bad('JPEG + HTML after EOI', Buffer.concat([jpeg(8, 8), html('<html><script>alert(1)</script></html>')]));
  bad('GIF/JS polyglot', Buffer.concat([Buffer.from('GIF89a/*', 'latin1'), Buffer.alloc(20), html('*/=alert(1);')]));
  bad(
    'GIF with script in comment',
    Buffer.concat([
      gif(8, 8).subarray(0, 19),
      Buffer.from([0x21, 0xfe, 0x20]),
      html('<script>alert(1)</script>xxxxxxx'),
      Buffer.from([0]),
      gif(8, 8).subarray(19),
    ]),
  );
  bad('WebP + trailing HTML', Buffer.concat([webp(8, 8), html('<html></html>')]));
  bad('MP4 + ZIP', Buffer.concat([video('mp4', 10), zipLocalHeader]));
  bad('MOV + HTML', Buffer.concat([video('mov', 10), html('<html><script>1</script></html>')]));
  // Truncated
  for (const [name, file] of [
    ['png', png(64, 64, 300)],
    ['jpeg', jpeg(64, 64, 300)],
    ['gif', gif(64, 64, 3)],
    ['webp', webp(64, 64)],
    ['mp4', video('mp4', 300)],
    ['mov', video('mov', 300)],
  ] as const) {
    for (const cut of [0.3, 0.6, 0.95])
      bad(`${name} truncated at ${cut * 100}%`, file.subarray(0, Math.floor(file.length * cut)));
    bad(`${name} missing its last byte`, file.subarray(0, file.length - 1));
  }
  bad('empty', Buffer.alloc(0));
  bad('one byte', Buffer.from([0x89]));
  bad('png signature only', PNG_SIG);
  // Pixel and frame bombs
  bad('png 20000x20000 bomb', png(20000, 20000));
  bad('png 8193x10', png(8193, 10));
  bad('png 7000x7000 (49 MP)', png(7000, 7000));
  bad('png 0x0', png(0, 0));
  bad('png 2^31 wide', png(0x7fffffff, 1));
  bad('jpeg 65000x65000', jpeg(65000, 65000));
  bad('jpeg 9000x100', jpeg(9000, 100));
  bad('gif 65535x65535', gif(65535, 65535));
  bad('gif 1001 frames', gif(10, 10, 1001));
  bad('webp VP8 16383x16383', webp(16383, 16383));
  bad('webp VP8X 20000x20000', webp(20000, 20000, 'VP8X'));
  bad('webp VP8L 16384x16384', webp(16384, 16384, 'VP8L'));
  // Other formats, whatever they are called
  bad('zip', Buffer.concat([zipLocalHeader, Buffer.alloc(100)]));
  bad('pdf', html('%PDF-1.7\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF'));
  bad('ELF', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]));
  bad(
    'Windows exe',
    Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(62), Buffer.from('PE\0\0', 'latin1'), Buffer.alloc(200)]),
  );
  bad(
    'bmp',
    Buffer.concat([
      Buffer.from('BM', 'latin1'),
      Buffer.from([70, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 24, 0]),
      Buffer.alloc(40),
    ]),
  );
  bad('tiff', Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), Buffer.alloc(100)]));
  bad(
    'heic',
    Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(12), Buffer.alloc(100)]),
  );
  bad(
    'avif',
    Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypavif', 'latin1'), Buffer.alloc(12), Buffer.alloc(100)]),
  );
  bad(
    'm4v',
    Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypM4V ', 'latin1'), Buffer.alloc(12), Buffer.alloc(100)]),
  );
  bad(
    'webm',
    Buffer.concat([
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]),
      Buffer.from('webm', 'latin1'),
      Buffer.alloc(100),
    ]),
  );
  bad('mp3', Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([4, 0, 0, 0, 0, 0, 0]), Buffer.alloc(200)]));
  bad(
    'APNG',
    (() => {
      const p = png(8, 8);
      const actl = Buffer.from([0, 0, 0, 8, 0x61, 0x63, 0x54, 0x4c, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
      return Buffer.concat([p.subarray(0, 33), actl, p.subarray(33)]);
    })(),
  );
  bad('random bytes', crypto.randomBytes(4096));
  bad('text', html('just some text that is not an image at all'));
  bad('ico', Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]), Buffer.alloc(100)]));
  return out;
}

export function corpus(): CorpusFile[] {
  return [...valid(), ...hostile()].map((f, i) => {
    const [filename, type] = disguise(i);
    return { ...f, filename, type };
  });
}
