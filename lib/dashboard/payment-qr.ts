import QRCode from 'qrcode';
import { Decimal } from '@/lib/money';
import type { Network } from '@/lib/chain/network';
import { familyOps } from '@/lib/chain/families';

/**
 * The deposit QR code as inline SVG (rendered on the server: no QR library in
 * the browser). The family's payment URI when the token is known, so wallets
 * prefill the amount (EIP-681 on EVM); otherwise the bare address. TRON has no payment URI its
 * wallets share: the bare `T…` address (docs/tron.md, "Checkout").
 */
export async function paymentQrSvg(
  address: string,
  amount: string,
  network: Pick<Network, 'chain' | 'chainId' | 'tokenAddress' | 'decimals'>,
): Promise<string> {
  const units = new Decimal(amount).times(new Decimal(10).pow(network.decimals)).toFixed(0);
  const tokenUri =
    network.tokenAddress &&
    familyOps(network.chain).paymentUri({ token: network.tokenAddress, chainId: network.chainId, to: address, units, decimals: network.decimals });
  const uri = tokenUri || address;
  return QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#0f172a', light: '#ffffff' } });
}
