// The renderer's only bridge: a few typed values and calls. Sandboxed preloads may require
// nothing but 'electron'; no fs, no child_process, no remote.
const { contextBridge, ipcRenderer } = require('electron');

const config = ipcRenderer.sendSync('herald:config');

contextBridge.exposeInMainWorld(
  'herald',
  Object.freeze({
    baseUrl: String(config.baseUrl),
    apiKey: String(config.apiKey),
    desktop: true,
    openExternal: (url) => ipcRenderer.invoke('herald:open-external', String(url)),
    notify: (title, body) => ipcRenderer.invoke('herald:notify', String(title), String(body)),
    getStartAtLogin: () => ipcRenderer.invoke('herald:get-start-at-login'),
    setStartAtLogin: (on) => ipcRenderer.invoke('herald:set-start-at-login', Boolean(on)),
    refreshKey: () => ipcRenderer.invoke('herald:refresh-key'),
  }),
);
