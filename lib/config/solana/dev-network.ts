/**
 * What development and tests use on Solana without configuration: the stand-in's fixed accounts
 * (devtools/solana-node/solana-node.ts derives each from sha256(`solana-stand-in:<name>`); these keys guard
 * nothing real). Mints in the `0x` form of their 32 bytes, as configuration gives them; keys as ed25519 seeds.
 * lib/chain/solana/dev-network.test.ts checks them against a running stand-in.
 */
export const SOLANA_DEV = {
  // What the stand-in's getGenesisHash answers (devtools/solana-node/json-rpc.ts): the rail check's network identity.
  genesisHash: '9LuctH9SHTAGKu2vM63KQZHZTFULd3bcGQemgrCxyVot',
  mints: {
    // 9AWvesBix9MhjnSgjgPByLKCavkbdGXNr3XcfPSh4DeA
    USDC: '0x794d8f1e1fd9dbb26e38a6e753881b3198c683a99ec4fd02dc50f412df728333',
    // 6uyzL5ZXgEXn5PpJRtX8T9Su674oGGC7Lf6qkzsECxMu
    USDT: '0x57dd12dfc4ab331f023e0c472f42f23d417b3f798fda41dea11a1bf441466400',
  },
  // 8Y4nrFJVnTLE8XrtHMBY3rtpK5xkbHTUpK461N4gcxRh
  gasWalletKey: '0xf5956f08498c9100690b27674bdfb62a901cbe1ce248e0951be7dda9c6af26db',
  // 4VcemXynPpLYzFip3dBQ4Ea2Xx7Rs44AohhudUfg51x1
  hotWalletKey: '0xfc1efc01a98b30a0e12bc06700f1f30427d7030daff8f482172433557a03eb04',
  // EoUMaXvq9gFZysztJTpY1cGSY6vxyfwx3tvxSyR4hYCc: the fee wallet development settles to (an address: fees stay in the hot wallet on Solana)
  feeWallet: '0xcd0f93d235e76c52e6e0cda21577ea3ba9e99ceeaa7091e9d262956d93b147ed',
  // Gr81yuM5qBqaVxZwErJxeab4P5BTX3jvZBn1XWEeifir: holds 1,000,000 of each test mint from the stand-in's start
  faucetKey: '0xf973cf10d39a3d7d28e1fdeaf050bf8106f0f60902e9c2bfcdf89e29ee41cb10',
} as const satisfies {
  genesisHash: string;
  mints: Record<'USDC' | 'USDT', `0x${string}`>;
  gasWalletKey: `0x${string}`;
  hotWalletKey: `0x${string}`;
  feeWallet: `0x${string}`;
  faucetKey: `0x${string}`;
};
