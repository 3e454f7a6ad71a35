/** Types of electron-binary.mjs (a plain script: npm start runs it before anything is compiled). */
export function installedElectron(from?: string): string | undefined;
export const INSTALL_ELECTRON: string;
