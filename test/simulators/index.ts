// Network simulators for tests: loopback HTTP doubles of X, Mastodon, Threads and LinkedIn.
export { startXSimulator, xSimulatorSettings, type XSimulator, type XSimulatorOptions } from './x.simulator.js';
export { startMastodonSimulator, type MastodonSimulator, type MastodonSimulatorOptions } from './mastodon.simulator.js';
export { startThreadsSimulator, type ThreadsSimulator, type ThreadsSimulatorOptions } from './threads.simulator.js';
export { startLinkedInSimulator, type LinkedInSimulator, type LinkedInSimulatorOptions } from './linkedin.simulator.js';
export { Faults, type Fault, type FaultFilter } from './common.js';
export { CANARY_PATTERN } from './util.js';
