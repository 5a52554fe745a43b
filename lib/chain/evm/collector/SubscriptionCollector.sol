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
 */
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
        // A token without code would "succeed" every transfer: refused once here rather than checked on each pull.
        if (
            token.code.length == 0 ||
            maxPerPeriod == 0 ||
            maxPerPeriod > type(uint104).max ||
            periodSeconds == 0 ||
            periodSeconds > type(uint48).max ||
            start > type(uint48).max
        ) revert BadPermission();
        permissions[msg.sender][subscriptionId] = Permission({
            token: token,
            start: uint48(start),
            period: uint48(periodSeconds),
            maxPerPeriod: uint104(maxPerPeriod),
            spent: 0,
            spentPeriod: 0,
            revoked: false
        });
        emit Authorized(msg.sender, subscriptionId, token, maxPerPeriod, periodSeconds, start);
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
