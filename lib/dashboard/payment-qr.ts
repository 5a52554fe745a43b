import QRCode from 'qrcode';
import { Decimal } from '@/lib/money';
import type { Network } from '@/lib/chain/network';

/**
 * The deposit QR code as inline SVG (rendered on the server: no QR library in
 * the browser). EIP-681 token transfer when the token is known, so wallets
 * prefill the amount; otherwise the bare address.
 */
export async function paymentQrSvg(
  address: string,
  amount: string,
  network: Pick<Network, 'chainId' | 'tokenAddress' | 'decimals'>,
): Promise<string> {
  const units = new Decimal(amount).times(new Decimal(10).pow(network.decimals)).toFixed(0);
  const uri = network.tokenAddress ? `ethereum:${network.tokenAddress}@${network.chainId}/transfer?address=${address}&uint256=${units}` : address;
  return QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#0f172a', light: '#ffffff' } });
}
