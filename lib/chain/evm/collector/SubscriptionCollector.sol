// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/**
 * The gateway's spender for subscriptions paid by automatic collection on EVM rails (issue 48 §2, docs/subscriptions.md).
 *
 * A payer approves this contract for a token, then authorizes one spend permission per subscription: at most
 * `maxPerPeriod` of that token per period of `periodSeconds`, counted from `start`. The gateway's operator pulls
 * within it; the payer revokes it at any time. What holds on chain whatever the operator does:
 *  - only the operator can pull, and only from a payer who authorized that subscription and has not revoked it;
 *  - a period's pulls add up to at most `maxPerPeriod` (several smaller pulls share the cap), none before `start`;
 *  - the tokens go only to an address the admin allowed (the gateway's own deposit or collection addresses). The
 *    admin is a separate key the operator does not hold: a leaked operator key can take at most one period's amount
 *    per subscription, and only into the gateway's addresses.
 * Tokens never rest here: each pull is one `transferFrom(payer, to, amount)`. Tokens that return nothing (USDT on
 * Ethereum) and tokens that return a bool are both accepted; `false` or a revert fails the pull.
 *
 * For tokens with EIP-2612 `permit` (Circle's USDC) the payer need not send a transaction at all: they sign the
 * token's Permit (the allowance) and this contract's Authorize (the permission, EIP-712), and anyone (the operator)
 * submits both through `permitAndAuthorize`. The payer's Authorize signature is the consent: a nonce per payer makes
 * each one usable once, so a revoked permission cannot be brought back by replaying it.
 */
interface IERC20Permit {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;

    function allowance(address owner, address spender) external view returns (uint256);
}

contract SubscriptionCollector {
    /** Two slots: token, start and period length; then the cap, what was pulled in `spentPeriod`, and revocation. */
    struct Permission {
        address token;
        uint48 start;
        uint48 period;
        uint104 maxPerPeriod;
        uint104 spent;
        uint40 spentPeriod;
        bool revoked;
    }

    address public admin;
    address public operator;
    /** payer => subscription id => permission: an id is the payer's own, another payer cannot take it over. */
    mapping(address => mapping(bytes32 => Permission)) public permissions;
    mapping(address => bool) public depositAllowed;
    /** The payer's next Authorize signature nonce: each signature authorizes once. */
    mapping(address => uint256) public nonces;

    /** What a payer authorizes (the arguments of `authorize`). */
    struct Terms {
        bytes32 subscriptionId;
        address token;
        uint256 maxPerPeriod;
        uint256 periodSeconds;
        uint256 start;
    }

    /** An ECDSA signature (v, r, s). */
    struct Signature {
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    bytes32 public constant AUTHORIZE_TYPEHASH =
        keccak256(
            'Authorize(address payer,bytes32 subscriptionId,address token,uint256 maxPerPeriod,uint256 periodSeconds,uint256 start,uint256 nonce,uint256 deadline)'
        );

    event Authorized(
        address indexed payer,
        bytes32 indexed subscriptionId,
        address indexed token,
        uint256 maxPerPeriod,
        uint256 periodSeconds,
        uint256 start
    );
    event Collected(
        address indexed payer,
        bytes32 indexed subscriptionId,
        address indexed to,
        address token,
        uint256 amount,
        uint256 periodIndex
    );
    event Revoked(address indexed payer, bytes32 indexed subscriptionId);
    event DepositAllowed(address indexed to, bool allowed);
    event OperatorSet(address indexed operator);
    event AdminSet(address indexed admin);

    error NotAdmin();
    error NotOperator();
    error BadPermission();
    error NoPermission();
    error PermissionRevoked();
    error NotStarted(uint256 start);
    error OverCap(uint256 available);
    error DepositNotAllowed(address to);
    error TransferFailed();
    error Expired(uint256 deadline);
    error BadSignature();
    error PermitFailed();

    constructor(address admin_, address operator_) {
        admin = admin_;
        operator = operator_;
        emit AdminSet(admin_);
        emit OperatorSet(operator_);
    }

    modifier onlyAdmin() {
        if (msg.sender != admin) revert NotAdmin();
        _;
    }

    /**
     * The payer (msg.sender) lets the operator pull `token` for `subscriptionId`. Authorizing an id again replaces
     * its permission and its period count: that is the payer's own new consent, never the operator's.
     */
    function authorize(bytes32 subscriptionId, address token, uint256 maxPerPeriod, uint256 periodSeconds, uint256 start) external {
        _authorize(msg.sender, subscriptionId, token, maxPerPeriod, periodSeconds, start);
    }

    /**
     * Gasless set-up for a token with EIP-2612 (USDC): the payer signed the token's Permit (`permitValue` for this
     * contract, until `deadline`) and this contract's Authorize (the same terms, their current nonce, the same
     * deadline); anyone submits both. The Authorize signature is checked first and its nonce used up before the
     * token is called. A permit that fails is accepted only when the allowance already covers `permitValue`: someone
     * who copied the permit from the mempool and submitted it first must not block the set-up; a permit that never
     * took effect (wrong signer, expired, replayed) leaves the allowance short and reverts `PermitFailed`.
     */
    function permitAndAuthorize(
        address payer,
        Terms calldata terms,
        uint256 permitValue,
        uint256 deadline,
        Signature calldata permitSig,
        Signature calldata authorizeSig
    ) external {
        if (block.timestamp > deadline) revert Expired(deadline);
        // A struct of static fields encodes in place: this is the EIP-712 hash of Authorize's fields in order.
        bytes32 structHash = keccak256(abi.encode(AUTHORIZE_TYPEHASH, payer, terms, nonces[payer]++, deadline));
        if (_recover(keccak256(abi.encodePacked('\x19\x01', DOMAIN_SEPARATOR(), structHash)), authorizeSig) != payer) revert BadSignature();
        address token = terms.token;
        try IERC20Permit(token).permit(payer, address(this), permitValue, deadline, permitSig.v, permitSig.r, permitSig.s) {} catch {
            if (IERC20Permit(token).allowance(payer, address(this)) < permitValue) revert PermitFailed();
        }
        _authorize(payer, terms.subscriptionId, token, terms.maxPerPeriod, terms.periodSeconds, terms.start);
    }

    /** The EIP-712 domain of Authorize: name "SubscriptionCollector", version "1", this chain and contract. */
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return
            keccak256(
                abi.encode(
                    keccak256('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
                    keccak256('SubscriptionCollector'),
                    keccak256('1'),
                    block.chainid,
                    address(this)
                )
            );
    }

    /** ecrecover with one valid form per signature (lower-half s, v 27 or 28); a bad one recovers no address. */
    function _recover(bytes32 digest, Signature calldata sig) private pure returns (address) {
        if (uint256(sig.s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0 || (sig.v != 27 && sig.v != 28)) revert BadSignature();
        address signer = ecrecover(digest, sig.v, sig.r, sig.s);
        if (signer == address(0)) revert BadSignature();
        return signer;
    }

    function _authorize(address payer, bytes32 subscriptionId, address token, uint256 maxPerPeriod, uint256 periodSeconds, uint256 start) private {
        // A token without code would "succeed" every transfer: refused once here rather than checked on each pull.
        if (
            token.code.length == 0 ||
            maxPerPeriod == 0 ||
            maxPerPeriod > type(uint104).max ||
            periodSeconds == 0 ||
            periodSeconds > type(uint48).max ||
            start > type(uint48).max
        ) revert BadPermission();
        permissions[payer][subscriptionId] = Permission({
            token: token,
            start: uint48(start),
            period: uint48(periodSeconds),
            maxPerPeriod: uint104(maxPerPeriod),
            spent: 0,
            spentPeriod: 0,
            revoked: false
        });
        emit Authorized(payer, subscriptionId, token, maxPerPeriod, periodSeconds, start);
    }

    /** The payer ends automatic collection for one subscription (lowering the token allowance ends it for all). */
    function revoke(bytes32 subscriptionId) external {
        Permission storage p = permissions[msg.sender][subscriptionId];
        if (p.token == address(0)) revert NoPermission();
        p.revoked = true;
        emit Revoked(msg.sender, subscriptionId);
    }

    /** The operator pulls `amount` of the subscription's token from `payer` into `to`, within this period's cap. */
    function collect(bytes32 subscriptionId, address payer, uint256 amount, address to) external {
        if (msg.sender != operator) revert NotOperator();
        if (!depositAllowed[to]) revert DepositNotAllowed(to);
        Permission storage p = permissions[payer][subscriptionId];
        address token = p.token;
        if (token == address(0)) revert NoPermission();
        if (p.revoked) revert PermissionRevoked();
        uint256 start = p.start;
        if (block.timestamp < start) revert NotStarted(start);
        uint256 index = (block.timestamp - start) / p.period;
        uint256 spent = index == p.spentPeriod ? p.spent : 0;
        uint256 cap = p.maxPerPeriod;
        if (amount == 0 || amount > cap - spent) revert OverCap(cap - spent);
        // Effects before the call: the token (the payer's choice) cannot re-enter a pull past the cap.
        p.spent = uint104(spent + amount);
        p.spentPeriod = uint40(index);
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0x23b872dd, payer, to, amount));
        if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TransferFailed();
        emit Collected(payer, subscriptionId, to, token, amount, index);
    }

    /** How much the operator may still pull for a subscription now (0 before start or when revoked). */
    function available(bytes32 subscriptionId, address payer) external view returns (uint256) {
        Permission storage p = permissions[payer][subscriptionId];
        if (p.token == address(0) || p.revoked || block.timestamp < p.start) return 0;
        uint256 index = (block.timestamp - p.start) / p.period;
        return p.maxPerPeriod - (index == p.spentPeriod ? p.spent : 0);
    }

    /** The admin allows (or stops allowing) gateway addresses as pull destinations. */
    function setDepositsAllowed(address[] calldata tos, bool allowed) external onlyAdmin {
        for (uint256 i = 0; i < tos.length; ) {
            depositAllowed[tos[i]] = allowed;
            emit DepositAllowed(tos[i], allowed);
            unchecked {
                ++i;
            }
        }
    }

    function setDepositAllowed(address to, bool allowed) external onlyAdmin {
        depositAllowed[to] = allowed;
        emit DepositAllowed(to, allowed);
    }

    /** The admin replaces a lost or leaked operator key (a leaked one is then useless at once). */
    function setOperator(address operator_) external onlyAdmin {
        operator = operator_;
        emit OperatorSet(operator_);
    }

    function setAdmin(address admin_) external onlyAdmin {
        admin = admin_;
        emit AdminSet(admin_);
    }
}
