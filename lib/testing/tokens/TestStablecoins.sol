// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/**
 * Local stand-ins for the stablecoins the gateway pays in (lib/testing/anvil.ts deploys them on anvil): the
 * ERC-20 surface, the owner's mint and pause (what tests used of OpenZeppelin's preset before), decimals set at
 * deployment, and each real contract's own freeze list, so a test can freeze a holder the way its issuer does.
 * Which one a rail gets follows the rails table (lib/config/rails.ts, `freezeList`).
 */
abstract contract TestStablecoin {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    address public owner;
    bool public paused;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Paused(address account);
    event Unpaused(address account);

    modifier onlyOwner() {
        require(msg.sender == owner, 'not owner');
        _;
    }

    constructor(string memory _name, string memory _symbol, uint8 _decimals) {
        name = _name;
        symbol = _symbol;
        decimals = _decimals;
        owner = msg.sender;
    }

    function mint(address _to, uint256 _amount) external onlyOwner {
        totalSupply += _amount;
        balanceOf[_to] += _amount;
        emit Transfer(address(0), _to, _amount);
    }

    function pause() external onlyOwner {
        paused = true;
        emit Paused(msg.sender);
    }

    function unpause() external onlyOwner {
        paused = false;
        emit Unpaused(msg.sender);
    }

    function transfer(address _to, uint256 _value) external returns (bool) {
        _move(msg.sender, _to, _value);
        return true;
    }

    function transferFrom(address _from, address _to, uint256 _value) external returns (bool) {
        uint256 allowed = allowance[_from][msg.sender];
        require(allowed >= _value, 'ERC20: insufficient allowance');
        if (allowed != type(uint256).max) allowance[_from][msg.sender] = allowed - _value;
        _move(_from, _to, _value);
        return true;
    }

    function approve(address _spender, uint256 _value) external returns (bool) {
        allowance[msg.sender][_spender] = _value;
        emit Approval(msg.sender, _spender, _value);
        return true;
    }

    /** The freeze list's rule for a transfer (none here). */
    function _checkFrozen(address _from, address _to) internal view virtual {}

    function _move(address _from, address _to, uint256 _value) private {
        require(!paused, 'ERC20Pausable: token transfer while paused');
        _checkFrozen(_from, _to);
        require(_to != address(0), 'ERC20: transfer to the zero address');
        require(balanceOf[_from] >= _value, 'ERC20: transfer amount exceeds balance');
        balanceOf[_from] -= _value;
        balanceOf[_to] += _value;
        emit Transfer(_from, _to, _value);
    }
}

/** No freeze list (Binance-Peg BEP-20 tokens on BSC). */
contract TestToken is TestStablecoin {
    constructor(string memory _name, string memory _symbol, uint8 _decimals) TestStablecoin(_name, _symbol, _decimals) {}
}

/** Tether's original USDT (Ethereum, TRON): `isBlackListed`; a listed holder cannot send, and can still receive. */
contract TestTetherToken is TestStablecoin {
    mapping(address => bool) public isBlackListed;

    event AddedBlackList(address _user);
    event RemovedBlackList(address _user);

    constructor(string memory _name, string memory _symbol, uint8 _decimals) TestStablecoin(_name, _symbol, _decimals) {}

    function addBlackList(address _evilUser) external onlyOwner {
        isBlackListed[_evilUser] = true;
        emit AddedBlackList(_evilUser);
    }

    function removeBlackList(address _clearedUser) external onlyOwner {
        isBlackListed[_clearedUser] = false;
        emit RemovedBlackList(_clearedUser);
    }

    function _checkFrozen(address _from, address) internal view override {
        require(!isBlackListed[_from], 'blacklisted');
    }
}

/** Tether's upgradeable USDT (USDT0 on Arbitrum and Polygon, `WithBlockedList`): `isBlocked`; a blocked holder cannot send. */
contract TestTetherTokenV2 is TestStablecoin {
    mapping(address => bool) public isBlocked;

    event BlockPlaced(address indexed _user);
    event BlockReleased(address indexed _user);

    constructor(string memory _name, string memory _symbol, uint8 _decimals) TestStablecoin(_name, _symbol, _decimals) {}

    function addToBlockedList(address _user) external onlyOwner {
        isBlocked[_user] = true;
        emit BlockPlaced(_user);
    }

    function removeFromBlockedList(address _user) external onlyOwner {
        isBlocked[_user] = false;
        emit BlockReleased(_user);
    }

    function _checkFrozen(address _from, address) internal view override {
        require(!isBlocked[_from], 'Blocked: msg.sender is blocked');
    }
}

/**
 * Circle's USDC (FiatToken v2, every network it issues on): `isBlacklisted`; a listed holder can neither send nor
 * receive. And its EIP-2612 `permit` (FiatTokenV2's EIP2612 with EIP-712 domain (name, version "2", chain id, this
 * contract)): an allowance set by the holder's signature, each signature usable once (`nonces`) until its deadline.
 */
contract TestFiatToken is TestStablecoin {
    mapping(address => bool) internal blacklisted;
    mapping(address => uint256) public nonces;

    bytes32 public constant PERMIT_TYPEHASH =
        keccak256('Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)');

    event Blacklisted(address indexed _account);
    event UnBlacklisted(address indexed _account);

    constructor(string memory _name, string memory _symbol, uint8 _decimals) TestStablecoin(_name, _symbol, _decimals) {}

    function isBlacklisted(address _account) external view returns (bool) {
        return blacklisted[_account];
    }

    function blacklist(address _account) external onlyOwner {
        blacklisted[_account] = true;
        emit Blacklisted(_account);
    }

    function unBlacklist(address _account) external onlyOwner {
        blacklisted[_account] = false;
        emit UnBlacklisted(_account);
    }

    function _checkFrozen(address _from, address _to) internal view override {
        require(!blacklisted[_from] && !blacklisted[_to], 'Blacklistable: account is blacklisted');
    }

    function version() external pure returns (string memory) {
        return '2';
    }

    /** Computed per call (FiatToken caches it): a chain id that changes (a fork) changes the domain. */
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return
            keccak256(
                abi.encode(
                    keccak256('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
                    keccak256(bytes(name)),
                    keccak256(bytes('2')),
                    block.chainid,
                    address(this)
                )
            );
    }

    function permit(address _owner, address _spender, uint256 _value, uint256 _deadline, uint8 _v, bytes32 _r, bytes32 _s) external {
        require(!blacklisted[_owner] && !blacklisted[_spender], 'Blacklistable: account is blacklisted');
        require(_deadline >= block.timestamp, 'FiatTokenV2: permit is expired');
        bytes32 digest = keccak256(
            abi.encodePacked(
                '\x19\x01',
                DOMAIN_SEPARATOR(),
                keccak256(abi.encode(PERMIT_TYPEHASH, _owner, _spender, _value, nonces[_owner]++, _deadline))
            )
        );
        // As OpenZeppelin's ECDSA (FiatToken's too): the lower-half s and v of 27/28 only, so a signature has one form.
        require(uint256(_s) <= 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0 && (_v == 27 || _v == 28), 'ECRecover: invalid signature');
        address signer = ecrecover(digest, _v, _r, _s);
        require(signer != address(0) && signer == _owner, 'EIP2612: invalid signature');
        allowance[_owner][_spender] = _value;
        emit Approval(_owner, _spender, _value);
    }
}
