// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

interface IGnosisSafeSetup {
    function setup(
        address[] calldata owners,
        uint256 threshold,
        address to,
        bytes calldata data,
        address fallbackHandler,
        address paymentToken,
        uint256 payment,
        address payable paymentReceiver
    ) external;
}

/// @title Safe proxy factory with signed, gasless creation (the public Polymarket SafeProxyFactory's ABI).
/// @notice Anyone may submit a `CreateProxy` signature; the recovered signer becomes the single owner of a
///         GnosisSafeProxy created with CREATE2 at an address that depends only on the owner. Differences
///         from the public factory: the EIP-712 domain name is a constructor argument ("Service Contract Proxy
///         Factory" in the default profile, the public "Polymarket Contract Proxy Factory" in the polymarket
///         profile), and the domain separator is computed at call time, so the contract stays correct wherever
///         its runtime is placed (the polymarket profile copies it to the public Polygon address).
contract SafeProxyFactory {
    struct Sig {
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    // The public factory has `string public constant NAME`; here the same getter reads storage.
    string public NAME;
    bytes32 public constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 public constant CREATE_PROXY_TYPEHASH =
        keccak256("CreateProxy(address paymentToken,uint256 payment,address paymentReceiver)");
    // secp256k1n / 2: signatures with a larger s are malleable copies and are rejected (as OpenZeppelin's ECDSA).
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    address public immutable masterCopy;
    address public immutable fallbackHandler;
    // GnosisSafeProxy creation code, given at deployment instead of compiled here so Safe addresses follow
    // from published bytes rather than from this compiler's metadata hash (protocol/walletAddresses.ts).
    bytes private proxyCode;

    event ProxyCreation(address proxy, address owner);

    constructor(address _masterCopy, address _fallbackHandler, bytes memory _proxyCreationCode, string memory _name) {
        require(_masterCopy != address(0), "masterCopy is the zero address");
        require(_proxyCreationCode.length > 0, "empty proxy creation code");
        require(bytes(_name).length > 0, "empty EIP-712 domain name");
        NAME = _name;
        masterCopy = _masterCopy;
        fallbackHandler = _fallbackHandler;
        proxyCode = _proxyCreationCode;
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(NAME)), block.chainid, address(this)));
    }

    function proxyCreationCode() public view returns (bytes memory) {
        return proxyCode;
    }

    /// @notice Proxy creation code followed by the constructor argument (the singleton).
    function getContractBytecode() public view returns (bytes memory) {
        return abi.encodePacked(proxyCode, uint256(uint160(masterCopy)));
    }

    function getSalt(address user) public pure returns (bytes32) {
        return keccak256(abi.encode(user));
    }

    function computeProxyAddress(address user) external view returns (address) {
        bytes32 h = keccak256(abi.encodePacked(bytes1(0xff), address(this), getSalt(user), keccak256(getContractBytecode())));
        return address(uint160(uint256(h)));
    }

    function createProxy(address paymentToken, uint256 payment, address payable paymentReceiver, Sig calldata createSig)
        external
    {
        bytes32 structHash = keccak256(abi.encode(CREATE_PROXY_TYPEHASH, paymentToken, payment, paymentReceiver));
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
        address owner = recover(digest, createSig.v, createSig.r, createSig.s);
        address proxy = deploy(owner);
        setupSafe(proxy, owner, paymentToken, payment, paymentReceiver);
        emit ProxyCreation(proxy, owner);
    }

    function deploy(address owner) private returns (address proxy) {
        bytes memory deploymentData = getContractBytecode();
        bytes32 salt = getSalt(owner);
        assembly {
            proxy := create2(0x0, add(0x20, deploymentData), mload(deploymentData), salt)
        }
        require(proxy != address(0), "create2 call failed");
    }

    function setupSafe(address proxy, address owner, address paymentToken, uint256 payment, address payable paymentReceiver)
        private
    {
        address[] memory owners = new address[](1);
        owners[0] = owner;
        IGnosisSafeSetup(proxy).setup(owners, 1, address(0), "", fallbackHandler, paymentToken, payment, paymentReceiver);
    }

    function recover(bytes32 digest, uint8 v, bytes32 r, bytes32 s) internal pure returns (address signer) {
        require(uint256(s) <= HALF_ORDER, "ECDSA: invalid signature 's' value");
        require(v == 27 || v == 28, "ECDSA: invalid signature 'v' value");
        signer = ecrecover(digest, v, r, s);
        require(signer != address(0), "ECDSA: invalid signature");
    }
}
