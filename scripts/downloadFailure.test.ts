import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downloadFailureLine } from './downloadFailure.js';

// electron-builder 26's output offline, as recorded here (stack trace shortened).
const OFFLINE = `  • electron-builder  version=26.17.0 os=6.18.44
  • loaded configuration  file=/w/electron-builder.yml
  • executing @electron/rebuild  electronVersion=45.4.1 arch=x64 buildFromSource=false
  • preparing       moduleName=better-sqlite3 arch=x64
  • finished        moduleName=better-sqlite3 arch=x64
  • completed installing native dependencies
  • packaging       platform=linux arch=x64 electron=45.4.1 appOutDir=out/linux-unpacked
  ⨯ getaddrinfo ENOTFOUND github.com  failedTask=build stackTrace=RequestError: getaddrinfo ENOTFOUND github.com
    at ClientRequest.<anonymous> (/w/node_modules/got/dist/source/core/index.js:970:111)`;

test('offline while packaging: one line naming the Electron binary, its URL and the network error', () => {
  const line = downloadFailureLine(OFFLINE, { electronVersion: '45.4.1' })!;
  assert.equal(line.includes('\n'), false);
  assert.match(line, /could not download the Electron 45\.4\.1 binary electron-v45\.4\.1-linux-x64\.zip/);
  assert.match(line, /https:\/\/github\.com\/electron\/electron\/releases\/download\/v45\.4\.1\/electron-v45\.4\.1-linux-x64\.zip/);
  assert.match(line, /getaddrinfo ENOTFOUND github\.com\./);
  assert.doesNotMatch(line, /failedTask|stackTrace/);
});

test('a tool download that fails is named by its URL', () => {
  const out = `  • packaging       platform=linux arch=x64 electron=45.4.1 appOutDir=out/linux-unpacked
  • building        target=AppImage arch=x64 file=out/Sandbox Exchange-0.1.0-x86_64.AppImage
  • downloading     url=https://github.com/electron-userland/electron-builder-binaries/releases/download/appimage-12.0.1/appimage-12.0.1.7z size=1.6 MB parts=1
  ⨯ connect ETIMEDOUT 140.82.121.4:443  failedTask=build`;
  const line = downloadFailureLine(out, { electronVersion: '45.4.1' })!;
  assert.match(line, /could not download appimage-12\.0\.1\.7z \(https:\/\/github\.com\/electron-userland\/electron-builder-binaries\/releases\/download\/appimage-12\.0\.1\/appimage-12\.0\.1\.7z\): connect ETIMEDOUT/);
});

test('a failure while rebuilding native modules names the module and Electron version', () => {
  const out = `  • preparing       moduleName=better-sqlite3 arch=x64
  ⨯ getaddrinfo EAI_AGAIN electronjs.org  failedTask=build`;
  assert.match(downloadFailureLine(out, { electronVersion: '45.4.1' })!, /Electron 45\.4\.1's headers or a prebuilt better-sqlite3/);
});

test('an error that is not a failed download is left alone, as is a successful run', () => {
  assert.equal(downloadFailureLine('  ⨯ Cannot compute electron version from installed node modules', { electronVersion: '45.4.1' }), undefined);
  assert.equal(downloadFailureLine('  • building        target=deb arch=x64 file=out/x.deb', { electronVersion: '45.4.1' }), undefined);
});
