// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/**
 * A test stand-in for Tether's TRC-20 USDT (TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t): 6 decimals, the
 * ERC-20 surface, and Tether's blacklist (`isBlackListed`, `addBlackList`, `removeBlackList`,
 * `getBlackListStatus`). As in Tether's contract, a blacklisted address cannot send (transfer,
 * transferFrom) but can still receive. `issue` mints for tests (Tether's is owner-only too).
 */
contract TetherTRC20 {
    string public name;
    string public symbol;
    uint8 public constant decimals = 6;
    uint256 public totalSupply;
    address public owner;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public isBlackListed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AddedBlackList(address _user);
    event RemovedBlackList(address _user);
    event Issue(uint256 amount);

    modifier onlyOwner() {
        require(msg.sender == owner, 'not owner');
        _;
    }

    constructor(string memory _name, string memory _symbol) {
        name = _name;
        symbol = _symbol;
        owner = msg.sender;
    }

    function transfer(address _to, uint256 _value) public returns (bool) {
        require(!isBlackListed[msg.sender], 'blacklisted');
        _transfer(msg.sender, _to, _value);
        return true;
    }

    function transferFrom(address _from, address _to, uint256 _value) public returns (bool) {
        require(!isBlackListed[_from], 'blacklisted');
        uint256 allowed = allowance[_from][msg.sender];
        require(allowed >= _value, 'allowance');
        if (allowed != type(uint256).max) allowance[_from][msg.sender] = allowed - _value;
        _transfer(_from, _to, _value);
        return true;
    }

    function approve(address _spender, uint256 _value) public returns (bool) {
        allowance[msg.sender][_spender] = _value;
        emit Approval(msg.sender, _spender, _value);
        return true;
    }

    function getBlackListStatus(address _maker) external view returns (bool) {
        return isBlackListed[_maker];
    }

    function addBlackList(address _evilUser) public onlyOwner {
        isBlackListed[_evilUser] = true;
        emit AddedBlackList(_evilUser);
    }

    function removeBlackList(address _clearedUser) public onlyOwner {
        isBlackListed[_clearedUser] = false;
        emit RemovedBlackList(_clearedUser);
    }

    function issue(address _to, uint256 _amount) public onlyOwner {
        totalSupply += _amount;
        balanceOf[_to] += _amount;
        emit Issue(_amount);
        emit Transfer(address(0), _to, _amount);
    }

    function _transfer(address _from, address _to, uint256 _value) private {
        require(_to != address(0), 'zero address');
        require(balanceOf[_from] >= _value, 'balance');
        balanceOf[_from] -= _value;
        balanceOf[_to] += _value;
        emit Transfer(_from, _to, _value);
    }
}
