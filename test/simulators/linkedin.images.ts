// LinkedIn simulator: the Images API. POST /rest/images?action=initializeUpload (owner must be the
// token's member) answers an image URN and a loopback upload URL; PUT /dms-uploads/{id} takes the
// bytes; GET /rest/images/{urn} goes WAITING_UPLOAD → PROCESSING → AVAILABLE (with a download URL).
import { randomId } from './common.js';
import type { Router, SimRequest } from './common.js';
import type { LinkedInError, LinkedInState, LinkedInWho } from './linkedin.types.js';

export function registerLinkedInImages(
  router: Router,
  ctx: {
    state: LinkedInState;
    /** The versioned-API check, then the token. */
    rest: (req: SimRequest) => LinkedInWho;
    /** The token alone (the upload URL is not versioned). */
    auth: (req: SimRequest) => LinkedInWho;
    li: LinkedInError;
    /** The simulator's URL (known once it listens). */
    base: () => string;
  },
): void {
  const { state, rest, auth, li } = ctx;
  router.on('POST', '/rest/images', (req) => {
    const a = rest(req);
    if (!('sub' in a)) return a;
    if (req.query.get('action') !== 'initializeUpload') return li(400, 'Unknown action', { code: 'ILLEGAL_ARGUMENT' });
    const owner = req.body?.initializeUploadRequest?.owner;
    if (!owner)
      return li(
        422,
        'ERROR :: /initializeUploadRequest/owner :: field is required but not found and has no default value',
      );
    if (owner !== a.urn)
      return li(403, 'Not enough permissions to access: partnerApiImages.ACTION.initializeUpload', {
        serviceErrorCode: 100,
        code: 'ACCESS_DENIED',
      });
    const uploadId = randomId(12);
    const urn = `urn:li:image:C4E10AQ${uploadId}`;
    state.images.set(urn, { urn, owner, uploadId, processingLeft: 1 });
    return {
      status: 200,
      body: {
        value: {
          uploadUrlExpiresAt: Date.now() + 3600_000,
          uploadUrl: `${ctx.base()}/dms-uploads/${uploadId}`,
          image: urn,
        },
      },
    };
  });
  router.on('PUT', '/dms-uploads/:id', (req) => {
    const a = auth(req);
    if (!('sub' in a)) return a;
    const img = [...state.images.values()].find((i) => i.uploadId === req.params.id);
    if (!img) return { status: 404, raw: '' };
    if (img.owner !== a.urn) return { status: 403, raw: '' };
    img.bytes = req.raw;
    return { status: 201, raw: '' };
  });
  router.on('GET', '/rest/images/:urn', (req) => {
    const a = rest(req);
    if (!('sub' in a)) return a;
    const img = state.images.get(req.params.urn!);
    if (!img) return li(404, `Not Found: ${req.params.urn}`, { code: 'NOT_FOUND' });
    let status = 'WAITING_UPLOAD';
    if (img.bytes) {
      status = img.processingLeft > 0 ? 'PROCESSING' : 'AVAILABLE';
      if (img.processingLeft > 0) img.processingLeft -= 1;
    }
    return {
      status: 200,
      body: {
        id: img.urn,
        owner: img.owner,
        status,
        ...(status === 'AVAILABLE' ? { downloadUrl: `${ctx.base()}/dms-downloads/${img.uploadId}` } : {}),
      },
    };
  });
}
